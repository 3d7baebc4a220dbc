/** The land check the create screen asks before publishing, and the embedded basemap layers. */
import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { GEO_TILE_MAX_ZOOM } from '../contract.ts';
export { GEO_TILE_MAX_ZOOM } from '../contract.ts';

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


const tileIndex = z.string().regex(/^\d{1,7}$/).transform(Number);

/**
 * `GET /api/geo/tiles/:z/:x/:y.pbf`: a tile of the pyramid (0 ≤ z ≤ GEO_TILE_MAX_ZOOM,
 * 0 ≤ x, y < 2^z); anything else is 400 `invalid_tile`.
 */
export const geoTileParamsSchema = z
  .object({ z: tileIndex, x: tileIndex, y: tileIndex })
  .refine(({ z: zoom, x, y }) => zoom <= GEO_TILE_MAX_ZOOM && x < 2 ** zoom && y < 2 ** zoom, { error: MESSAGES.invalid_tile });
