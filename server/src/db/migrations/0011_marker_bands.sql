-- City views read publications_marker_idx by latitude band first (issue 15, posts/feed.ts
-- MARKER_BANDS_PER_DEGREE): keyed on (longitude, latitude), a view's range scan read every post
-- of its longitude strip around the whole world (Paris's strip crosses Africa) to keep those
-- inside its latitudes. Keyed on the band of 1/32° of latitude first, a view reads one short
-- longitude range per band it crosses (`band = any(...)`), which is only a little more than its
-- own posts. 32 is a power of two, so `latitude * 32` is exact and feed.ts computes the same bands.
DROP INDEX "publications_marker_idx";--> statement-breakpoint
CREATE INDEX "publications_marker_idx" ON "publications" USING btree ((floor("latitude" * 32)::smallint), "longitude", "latitude")
  INCLUDE ("created_at", "category", "marker_json")
  WHERE "hidden_state" IS NULL;
