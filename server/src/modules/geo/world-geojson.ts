/**
 * The basemap's land and borders as world GeoJSON (`/api/map/land.geojson`, `borders.geojson`,
 * kept for other clients): written gzip by server/geodata/basemap/build.ts from the same repaired
 * Natural Earth 50m data the low-zoom tiles hold, and only read here. A client that does not
 * accept gzip gets the bytes inflated once, on its first request.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const WORLD_GEOJSON_FILES = {
  land: fileURLToPath(new URL('../../../geodata/basemap/land-50m.geojson.gz', import.meta.url)),
  borders: fileURLToPath(new URL('../../../geodata/basemap/borders-50m.geojson.gz', import.meta.url)),
} as const;

export interface WorldGeoJson {
  gzip: Buffer;
  identity: Buffer;
  /** Strong ETags, one per representation (RFC 9110: a content coding is another representation). */
  etag: string;
  gzipEtag: string;
}

/** The file's bytes, its ETag from the GeoJSON itself (the same whatever gzip wrote). */
export function readWorldGeoJson(file: string): WorldGeoJson {
  const gzip = readFileSync(file);
  const identity = gunzipSync(gzip);
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 32);
  return { gzip, identity, etag: `"${hash}"`, gzipEtag: `"${hash}-gzip"` };
}
