CREATE TABLE "moderation_appeals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"decision_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"statement" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"note" text,
	CONSTRAINT "moderation_appeals_decision_id_unique" UNIQUE("decision_id"),
	CONSTRAINT "moderation_appeals_status" CHECK ("moderation_appeals"."status" in ('open', 'upheld', 'reversed')),
	CONSTRAINT "moderation_appeals_statement_length" CHECK (char_length("moderation_appeals"."statement") between 1 and 2000)
);
--> statement-breakpoint
CREATE TABLE "moderation_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid,
	"author_id" uuid,
	"moderator_id" uuid,
	"action" text NOT NULL,
	"suspend_days" integer,
	"reason_key" text NOT NULL,
	"note" text,
	"post_snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"appeal_until" timestamp with time zone NOT NULL,
	"reversed_at" timestamp with time zone,
	CONSTRAINT "moderation_decisions_action" CHECK ("moderation_decisions"."action" in ('dismiss', 'remove', 'warn', 'suspend', 'ban')),
	CONSTRAINT "moderation_decisions_note_length" CHECK ("moderation_decisions"."note" is null or char_length("moderation_decisions"."note") <= 1000)
);
--> statement-breakpoint
CREATE TABLE "moderation_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"decision_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "moderation_notices_kind" CHECK ("moderation_notices"."kind" in ('report_outcome', 'statement', 'appeal_outcome'))
);
--> statement-breakpoint
CREATE TABLE "user_blocks" (
	"blocker_id" uuid NOT NULL,
	"blocked_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_blocks_blocker_id_blocked_id_pk" PRIMARY KEY("blocker_id","blocked_id"),
	CONSTRAINT "user_blocks_not_self" CHECK ("user_blocks"."blocker_id" <> "user_blocks"."blocked_id")
);
--> statement-breakpoint
DROP INDEX "profiles_created_at_idx";--> statement-breakpoint
DROP INDEX "security_logs_created_idx";--> statement-breakpoint
ALTER TABLE "post_reports" ADD COLUMN "decision_id" uuid;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "hidden_state" text;--> statement-breakpoint
ALTER TABLE "security_logs" ADD COLUMN "target_id" uuid;--> statement-breakpoint
ALTER TABLE "security_logs" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "banned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "moderation_appeals" ADD CONSTRAINT "moderation_appeals_decision_id_moderation_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."moderation_decisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_appeals" ADD CONSTRAINT "moderation_appeals_author_id_profiles_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_appeals" ADD CONSTRAINT "moderation_appeals_decided_by_profiles_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_post_id_publications_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."publications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_author_id_profiles_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_moderator_id_profiles_id_fk" FOREIGN KEY ("moderator_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_notices" ADD CONSTRAINT "moderation_notices_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_notices" ADD CONSTRAINT "moderation_notices_decision_id_moderation_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."moderation_decisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_blocks" ADD CONSTRAINT "user_blocks_blocker_id_profiles_id_fk" FOREIGN KEY ("blocker_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_blocks" ADD CONSTRAINT "user_blocks_blocked_id_profiles_id_fk" FOREIGN KEY ("blocked_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_appeals_open_idx" ON "moderation_appeals" USING btree ("created_at") WHERE "moderation_appeals"."status" = 'open';--> statement-breakpoint
CREATE INDEX "moderation_decisions_author_idx" ON "moderation_decisions" USING btree ("author_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "moderation_notices_user_idx" ON "moderation_notices" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_blocks_blocked_idx" ON "user_blocks" USING btree ("blocked_id");--> statement-breakpoint
CREATE INDEX "profiles_created_id_idx" ON "profiles" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "profiles_username_prefix_idx" ON "profiles" USING btree (lower("username") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "security_logs_created_id_idx" ON "security_logs" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "security_logs_severity_created_idx" ON "security_logs" USING btree ("severity","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "security_logs_type_created_idx" ON "security_logs" USING btree ("event_type","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_hidden_state" CHECK ("publications"."hidden_state" is null or "publications"."hidden_state" in ('pending', 'removed'));--> statement-breakpoint
-- Hidden posts (pending review, removed by a moderator) leave the map for everyone: the marker
-- index becomes partial, so city views stay an index-only scan with `hidden_state IS NULL`.
DROP INDEX "publications_marker_idx";--> statement-breakpoint
CREATE INDEX "publications_marker_idx" ON "publications" USING btree ("longitude","latitude")
  INCLUDE ("created_at","category","has_pulse_effect","id","user_id","nickname","author_photo_url")
  WHERE "hidden_state" IS NULL;--> statement-breakpoint
-- A hidden post is not in post_cells any more: when it is deleted later (sweeper, owner,
-- cascade) it must not be subtracted twice.
CREATE OR REPLACE FUNCTION "post_cells_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM post_cells c
  WHERE (c.zoom, c.cx, c.cy, c.category) IN (
    SELECT k.zoom, k.cx, k.cy, r.category FROM removed r, post_cell_keys(r.latitude, r.longitude) k WHERE r.hidden_state IS NULL)
  ORDER BY c.zoom, c.cx, c.cy, c.category FOR UPDATE;
  UPDATE post_cells c SET n = c.n - d.n, sum_lat = c.sum_lat - d.sum_lat, sum_lon = c.sum_lon - d.sum_lon
  FROM (
    SELECT k.zoom, k.cx, k.cy, r.category, count(*)::int AS n, sum(r.latitude::numeric) AS sum_lat, sum(r.longitude::numeric) AS sum_lon
    FROM removed r, post_cell_keys(r.latitude, r.longitude) k
    WHERE r.hidden_state IS NULL
    GROUP BY k.zoom, k.cx, k.cy, r.category
  ) d
  WHERE c.zoom = d.zoom AND c.cx = d.cx AND c.cy = d.cy AND c.category = d.category;
  DELETE FROM post_cells c
  WHERE c.n <= 0 AND (c.zoom, c.cx, c.cy, c.category) IN (
    SELECT k.zoom, k.cx, k.cy, r.category FROM removed r, post_cell_keys(r.latitude, r.longitude) k WHERE r.hidden_state IS NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
-- Hiding and restoring move one post out of / back into its cells, and tell the changes poll
-- (a tombstone while hidden). Row-level and only when visibility flips: it is rare.
CREATE FUNCTION "post_visibility_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d int := CASE WHEN NEW.hidden_state IS NULL THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO post_cells (zoom, cx, cy, category, n, sum_lat, sum_lon)
  SELECT k.zoom, k.cx, k.cy, NEW.category, d, d * NEW.latitude::numeric, d * NEW.longitude::numeric
  FROM post_cell_keys(NEW.latitude, NEW.longitude) k
  ORDER BY 1, 2, 3
  ON CONFLICT (zoom, cx, cy, category) DO UPDATE
    SET n = post_cells.n + excluded.n, sum_lat = post_cells.sum_lat + excluded.sum_lat, sum_lon = post_cells.sum_lon + excluded.sum_lon;
  DELETE FROM post_cells c WHERE c.n <= 0 AND c.category = NEW.category
    AND (c.zoom, c.cx, c.cy) IN (SELECT k.zoom, k.cx, k.cy FROM post_cell_keys(NEW.latitude, NEW.longitude) k);
  IF d < 0 THEN
    INSERT INTO post_tombstones (post_id, deleted_at) VALUES (NEW.id, now())
    ON CONFLICT (post_id) DO UPDATE SET deleted_at = excluded.deleted_at;
  ELSE
    DELETE FROM post_tombstones WHERE post_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "publications_visibility" AFTER UPDATE OF "hidden_state" ON "publications"
  FOR EACH ROW WHEN ((OLD.hidden_state IS NULL) <> (NEW.hidden_state IS NULL))
  EXECUTE FUNCTION "post_visibility_changed"();--> statement-breakpoint
-- The audit trail is append-only (issue 17): no entry is edited or deleted, by any path. The
-- only change allowed is the foreign keys' ON DELETE SET NULL when an account is deleted.
CREATE FUNCTION "security_logs_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE'
     OR (NEW.id, NEW.event_type, NEW.event_description, NEW.severity, NEW.ip, NEW.created_at, NEW.target_id, NEW.reason)
        IS DISTINCT FROM (OLD.id, OLD.event_type, OLD.event_description, OLD.severity, OLD.ip, OLD.created_at, OLD.target_id, OLD.reason)
     OR (NEW.user_id IS NOT NULL AND NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
    RAISE EXCEPTION 'security_logs is append-only' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "security_logs_append_only" BEFORE UPDATE OR DELETE ON "security_logs"
  FOR EACH ROW EXECUTE FUNCTION "security_logs_append_only"();
