CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"preview" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_subscriptions_endpoint_unique" UNIQUE("endpoint")
);
--> statement-breakpoint
ALTER TABLE "post_tombstones" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "post_tombstones" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "exact_latitude" double precision;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "exact_longitude" double precision;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
-- A hidden post's tombstone carries its position too, so the poll scopes it to the views that held it.
CREATE OR REPLACE FUNCTION "post_visibility_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    INSERT INTO post_tombstones (post_id, deleted_at, latitude, longitude) VALUES (NEW.id, now(), NEW.latitude, NEW.longitude)
    ON CONFLICT (post_id) DO UPDATE SET deleted_at = excluded.deleted_at, latitude = excluded.latitude, longitude = excluded.longitude;
  ELSE
    DELETE FROM post_tombstones WHERE post_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
