-- Repeated security events of one kind from one source are one row per window with a count:
-- the first is written, the next ones raise `occurrences` and `last_at` (log.ts). Staff
-- decisions (a target or a reason) keep a row each, their window columns left null.
ALTER TABLE "security_logs" ADD COLUMN "source_key" text;--> statement-breakpoint
ALTER TABLE "security_logs" ADD COLUMN "window_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "security_logs" ADD COLUMN "occurrences" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "security_logs" ADD COLUMN "last_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "security_logs_window_idx" ON "security_logs" USING btree ("event_type","window_start","source_key");--> statement-breakpoint
-- Still append-only in meaning: an entry's facts never change; its count only grows.
CREATE OR REPLACE FUNCTION "security_logs_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE'
     OR (NEW.id, NEW.event_type, NEW.event_description, NEW.severity, NEW.ip, NEW.created_at, NEW.target_id, NEW.reason, NEW.source_key, NEW.window_start)
        IS DISTINCT FROM (OLD.id, OLD.event_type, OLD.event_description, OLD.severity, OLD.ip, OLD.created_at, OLD.target_id, OLD.reason, OLD.source_key, OLD.window_start)
     OR NEW.occurrences < OLD.occurrences
     OR (NEW.user_id IS NOT NULL AND NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
    RAISE EXCEPTION 'security_logs is append-only' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
-- Who or what started emergency mode, and why (shown to staff).
ALTER TABLE "emergency_mode" ADD COLUMN "started_by" uuid;--> statement-breakpoint
ALTER TABLE "emergency_mode" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "emergency_mode" ADD CONSTRAINT "emergency_mode_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
