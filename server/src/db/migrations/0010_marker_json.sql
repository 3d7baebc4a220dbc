-- Each post's map marker is written once as JSON when the row is (issue 15, posts/feed.ts): a
-- viewport answer joins ready texts instead of building ~1 000 JSON objects on every read (that
-- build was most of a city view's time at 10^6 posts).
-- The marker (core's markerSchema, dto.ts toMarkerDto's fields in its order): numbers print as
-- float8's shortest exact text, as JSON.stringify prints them (`+ 0` turns -0 into 0 as it does);
-- strings go through to_json (escaped); createdAt is toISOString's format, its milliseconds
-- truncated as the driver's Date truncates them. Declared IMMUTABLE so a generated column may
-- use it: its text depends only on its arguments (to_char's numeric patterns ignore the locale;
-- float8 text follows extra_float_digits, left at its default by the app as before).
CREATE FUNCTION "post_marker_json"(p_id uuid, p_user_id uuid, p_category text, p_latitude float8, p_longitude float8,
  p_nickname text, p_photo_url text, p_pulse boolean, p_created_at timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '{"id":"' || p_id || '","userId":"' || p_user_id || '","category":' || to_json(p_category)
    || ',"latitude":' || (p_latitude + 0) || ',"longitude":' || (p_longitude + 0)
    || ',"nickname":' || to_json(p_nickname) || ',"photoUrl":' || coalesce(to_json(p_photo_url)::text, 'null')
    || ',"hasPulseEffect":' || (CASE WHEN p_pulse THEN 'true' ELSE 'false' END)
    || ',"createdAt":"' || to_char(p_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}'
$$;--> statement-breakpoint
-- Stored, so PostgreSQL rewrites it with the row: a photo change (profiles/service.ts replacePhoto
-- rewrites author_photo_url) reaches the markers in the same statement.
ALTER TABLE "publications" ADD COLUMN "marker_json" text GENERATED ALWAYS AS (post_marker_json(id, user_id, category, latitude, longitude, nickname, author_photo_url, has_pulse_effect, created_at)) STORED;--> statement-breakpoint
-- City views read the marker text and the two columns they filter or order by, index-only; the
-- separate marker columns leave the index (nothing reads them from it any more).
DROP INDEX "publications_marker_idx";--> statement-breakpoint
CREATE INDEX "publications_marker_idx" ON "publications" USING btree ("longitude","latitude")
  INCLUDE ("created_at","category","marker_json")
  WHERE "hidden_state" IS NULL;
