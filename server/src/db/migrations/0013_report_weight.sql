-- A report hides its post only when it counts (modules/moderation/threshold.ts): its reporter's
-- account was confirmed and old enough when reporting, and at most one report counts per network.
-- The network is a keyed hash of the reporter's /24 (IPv4) or /48 (IPv6), never the address.
ALTER TABLE "post_reports" ADD COLUMN "reporter_network" text;--> statement-breakpoint
ALTER TABLE "post_reports" ADD COLUMN "counts_toward_hiding" boolean DEFAULT false NOT NULL;
