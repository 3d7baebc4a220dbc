CREATE TABLE "payment_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_events_provider" CHECK ("payment_events"."provider" in ('dev', 'stripe'))
);
--> statement-breakpoint
ALTER TABLE "pulse_purchases" DROP CONSTRAINT "pulse_purchases_status";--> statement-breakpoint
ALTER TABLE "pulse_purchases" ADD COLUMN "payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "pulse_purchases" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pulse_purchases" ADD COLUMN "credits_removed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "pulse_purchases_payment_intent_idx" ON "pulse_purchases" USING btree ("payment_intent_id");--> statement-breakpoint
ALTER TABLE "pulse_purchases" ADD CONSTRAINT "pulse_purchases_status" CHECK ("pulse_purchases"."status" in ('pending', 'paid', 'failed', 'expired', 'refunded', 'disputed'));