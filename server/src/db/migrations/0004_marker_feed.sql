CREATE TABLE "post_cells" (
	"zoom" smallint NOT NULL,
	"cx" integer NOT NULL,
	"cy" integer NOT NULL,
	"category" text NOT NULL,
	"n" integer NOT NULL,
	"sum_lat" numeric NOT NULL,
	"sum_lon" numeric NOT NULL,
	CONSTRAINT "post_cells_zoom_cx_cy_category_pk" PRIMARY KEY("zoom","cx","cy","category")
);
--> statement-breakpoint
DROP INDEX "publications_position_idx";--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "author_photo_url" text;--> statement-breakpoint
UPDATE "publications" p SET "author_photo_url" = pr."profile_photo_url" FROM "profiles" pr WHERE pr."id" = p."user_id";--> statement-breakpoint
-- The map's points: a range on longitude, latitude checked in the index, every marker column
-- included, so a city view is an index-only scan (no heap visit, no join).
CREATE INDEX "publications_marker_idx" ON "publications" USING btree ("longitude","latitude")
  INCLUDE ("created_at","category","has_pulse_effect","id","user_id","nickname","author_photo_url");--> statement-breakpoint
-- The grid cells of a position at every grid zoom 0–8 (posts/feed.ts CELL_ZOOM_MAX, CELL_PX 60):
-- the same arithmetic as feed.ts cellRange, latitude clamped to web-mercator's range.
CREATE FUNCTION "post_cell_keys"(lat float8, lon float8) RETURNS TABLE(zoom smallint, cx int, cy int)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT z::smallint,
         floor((lon + 180) / 360 * (256 * 2 ^ z / 60))::int,
         floor((0.5 - ln(tan(pi() / 4 + radians(greatest(-85.0511287798, least(85.0511287798, lat))) / 2)) / (2 * pi())) * (256 * 2 ^ z / 60))::int
  FROM generate_series(0, 8) z
$$;--> statement-breakpoint
-- Inserted posts are added to their cells, in key order (concurrent creates lock cells in the
-- same order, so they never deadlock).
CREATE FUNCTION "post_cells_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_cells (zoom, cx, cy, category, n, sum_lat, sum_lon)
  SELECT k.zoom, k.cx, k.cy, r.category, count(*), sum(r.latitude::numeric), sum(r.longitude::numeric)
  FROM added r, post_cell_keys(r.latitude, r.longitude) k
  GROUP BY k.zoom, k.cx, k.cy, r.category
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (zoom, cx, cy, category) DO UPDATE
    SET n = post_cells.n + excluded.n, sum_lat = post_cells.sum_lat + excluded.sum_lat, sum_lon = post_cells.sum_lon + excluded.sum_lon;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Deleted posts leave their cells: rows locked in key order first (the sweeper and a create may
-- run at once), then decremented; empty cells are removed.
CREATE FUNCTION "post_cells_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM post_cells c
  WHERE (c.zoom, c.cx, c.cy, c.category) IN (
    SELECT k.zoom, k.cx, k.cy, r.category FROM removed r, post_cell_keys(r.latitude, r.longitude) k)
  ORDER BY c.zoom, c.cx, c.cy, c.category FOR UPDATE;
  UPDATE post_cells c SET n = c.n - d.n, sum_lat = c.sum_lat - d.sum_lat, sum_lon = c.sum_lon - d.sum_lon
  FROM (
    SELECT k.zoom, k.cx, k.cy, r.category, count(*)::int AS n, sum(r.latitude::numeric) AS sum_lat, sum(r.longitude::numeric) AS sum_lon
    FROM removed r, post_cell_keys(r.latitude, r.longitude) k
    GROUP BY k.zoom, k.cx, k.cy, r.category
  ) d
  WHERE c.zoom = d.zoom AND c.cx = d.cx AND c.cy = d.cy AND c.category = d.category;
  DELETE FROM post_cells c
  WHERE c.n <= 0 AND (c.zoom, c.cx, c.cy, c.category) IN (
    SELECT k.zoom, k.cx, k.cy, r.category FROM removed r, post_cell_keys(r.latitude, r.longitude) k);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "publications_cells_add" AFTER INSERT ON "publications"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "post_cells_add"();--> statement-breakpoint
CREATE TRIGGER "publications_cells_remove" AFTER DELETE ON "publications"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "post_cells_remove"();--> statement-breakpoint
INSERT INTO "post_cells" (zoom, cx, cy, category, n, sum_lat, sum_lon)
SELECT k.zoom, k.cx, k.cy, p.category, count(*), sum(p.latitude::numeric), sum(p.longitude::numeric)
FROM "publications" p, post_cell_keys(p.latitude, p.longitude) k
GROUP BY k.zoom, k.cx, k.cy, p.category;
