-- Paid purchases of a deleted account, without its identity: the accounting record the law
-- keeps for ten years (account/deletion.ts moves them here; purged once keep_until is past).
CREATE TABLE "retained_payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"session_id" text NOT NULL,
	"payment_intent_id" text,
	"quantity" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"keep_until" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "retained_payments_keep_until_idx" ON "retained_payments" USING btree ("keep_until");--> statement-breakpoint
-- The security log stays append-only, with one more change allowed: in the transaction that
-- deletes an account (which sets moodmap.erased_account to its id), the rows naming that id
-- may have it replaced by a pseudonym, every other fact unchanged.
CREATE OR REPLACE FUNCTION "security_logs_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  erased text := nullif(current_setting('moodmap.erased_account', true), '');
BEGIN
  IF TG_OP = 'UPDATE' AND erased IS NOT NULL
     AND (NEW.id, NEW.event_type, NEW.severity, NEW.ip, NEW.created_at, NEW.window_start, NEW.occurrences, NEW.last_at)
         IS NOT DISTINCT FROM (OLD.id, OLD.event_type, OLD.severity, OLD.ip, OLD.created_at, OLD.window_start, OLD.occurrences, OLD.last_at)
     AND (NEW.user_id IS NULL OR NEW.user_id = OLD.user_id)
     AND position(erased in concat_ws(' ', OLD.user_id, OLD.target_id, OLD.source_key, OLD.event_description, OLD.reason)) > 0
     AND position(erased in concat_ws(' ', NEW.user_id, NEW.target_id, NEW.source_key, NEW.event_description, NEW.reason)) = 0 THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE'
     OR (NEW.id, NEW.event_type, NEW.event_description, NEW.severity, NEW.ip, NEW.created_at, NEW.target_id, NEW.reason, NEW.source_key, NEW.window_start)
        IS DISTINCT FROM (OLD.id, OLD.event_type, OLD.event_description, OLD.severity, OLD.ip, OLD.created_at, OLD.target_id, OLD.reason, OLD.source_key, OLD.window_start)
     OR NEW.occurrences < OLD.occurrences
     OR (NEW.user_id IS NOT NULL AND NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
    RAISE EXCEPTION 'security_logs is append-only' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
