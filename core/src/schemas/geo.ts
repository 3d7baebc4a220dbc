/** The land check the create screen asks before publishing, and the embedded basemap layers. */
import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { GEO_TILE_MAX_ZOOM } from '../contract.ts';
import { SEARCH_MAX, SEARCH_MIN } from '../limits.ts';
export { GEO_TILE_MAX_ZOOM } from '../contract.ts';

/** Place search: results per answer, at most and by default. */
export const PLACE_SEARCH_MAX_RESULTS = 10;
export const PLACE_SEARCH_DEFAULT_RESULTS = 5;

const invalid = { error: MESSAGES.invalid_coordinates };

/** A plain decimal number: no empty string (which Number() reads as 0), hex, or exponent. */
const coordinate = (limit: number) =>
  z
    .string(invalid)
    .trim()
    .regex(/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/, invalid)
    .transform(Number)
    .pipe(z.number().min(-limit, invalid).max(limit, invalid));

/** `GET /api/geo/land?lat&lon`: every refusal is 400 `invalid_coordinates`. */
export const landQuerySchema = z.object({ lat: coordinate(90), lon: coordinate(180) });

/** `GET /api/geo/land` */
export const landResponseSchema = z.object({ onLand: z.boolean() });
export type LandResponse = z.infer<typeof landResponseSchema>;

/**
 * `GET /api/map/land.geojson` and `/api/map/borders.geojson`: a GeoJSON FeatureCollection,
 * sent as prepared bytes (gzip or identity, with an ETag), so this schema documents the
 * answer rather than serialising it.
 */
export const featureCollectionSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(z.object({ type: z.literal('Feature'), geometry: z.unknown(), properties: z.unknown() })),
});

const tileIndex = z
  .string()
  .regex(/^\d{1,7}$/)
  .transform(Number);

/**
 * `GET /api/geo/tiles/:z/:x/:y.pbf`: a tile of the pyramid (0 ≤ z ≤ GEO_TILE_MAX_ZOOM,
 * 0 ≤ x, y < 2^z); anything else is 400 `invalid_tile`.
 */
export const geoTileParamsSchema = z
  .object({ z: tileIndex, x: tileIndex, y: tileIndex })
  .refine(({ z: zoom, x, y }) => zoom <= GEO_TILE_MAX_ZOOM && x < 2 ** zoom && y < 2 ** zoom, {
    error: MESSAGES.invalid_tile,
  });

/**
 * `GET /api/geo/places?q&limit`: `q` trimmed, 2 to 100 characters like the post
 * search (search_length), no NUL; `limit` a whole number from 1 to PLACE_SEARCH_MAX_RESULTS,
 * 5 by default (bad_request otherwise).
 */
export const placeSearchQuerySchema = z.object({
  q: z
    .string({ error: MESSAGES.search_length })
    .trim()
    .max(SEARCH_MAX * 2, { error: MESSAGES.search_length, abort: true })
    .refine((v) => !v.includes('\u0000'), { error: MESSAGES.bad_request, abort: true })
    .refine((v) => {
      const length = Array.from(v).length;
      return length >= SEARCH_MIN && length <= SEARCH_MAX;
    }, MESSAGES.search_length),
  limit: z
    .string({ error: MESSAGES.bad_request })
    .regex(/^\d{1,2}$/, { error: MESSAGES.bad_request, abort: true })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, { error: MESSAGES.bad_request })
        .max(PLACE_SEARCH_MAX_RESULTS, { error: MESSAGES.bad_request }),
    )
    .optional()
    .transform((v) => v ?? PLACE_SEARCH_DEFAULT_RESULTS),
});
export type PlaceSearchQuery = z.infer<typeof placeSearchQuerySchema>;

/**
 * A place found: GeoNames' name, its first-level region when it says more than the country,
 * the country (ISO 3166-1 alpha-2) and its French name, and the zoom the map flies to (by size).
 */
export const placeSchema = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string().nullable(),
  country: z.string(),
  countryName: z.string(),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  population: z.number().int().min(0),
  zoom: z.number().int().min(0).max(22),
});
export type PlaceDto = z.infer<typeof placeSchema>;

/** The answer: exact names first, then by population. */
export const placeSearchResponseSchema = z.object({ places: z.array(placeSchema).max(PLACE_SEARCH_MAX_RESULTS) });
export type PlaceSearchResponse = z.infer<typeof placeSearchResponseSchema>;
