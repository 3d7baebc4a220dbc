/**
 * River centre lines for the offline basemap's `rivers` layer: the CIA World Data Bank II rivers
 * as GSHHG ships them (LGPL-3+), derived once into `server/geodata/rivers/rivers.json.gz` by the
 * script beside it. npm has no river line data: the @geo-maps river packages are water surfaces
 * generalised to 500 m or more, which cut a city's river into scattered triangles, so the
 * repository keeps these lines itself (2.5 MB, 1.2 M points). They are a 1:1 M-scale survey:
 * measured at 14 bridges of European cities, the line passes 15–810 m from the river's bed
 * (median ~280 m): right for a region or a city, not for a street (MAP_PMTILES is for that).
 *
 * Each line carries its WDB rank (0 the outlines of the widest rivers, 1 the major rivers, 2 the
 * other major ones, 3 the rest of the permanent rivers); a tile keeps the ranks worth drawing at
 * its zoom, so the world view carries no river at all and a region shows its main rivers first.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { GeoJSONVTFeature } from '@maplibre/geojson-vt';

const DATA_FILE = new URL('../../rivers/rivers.json.gz', import.meta.url);

/** The lowest zoom at which each rank is drawn (index = rank). */
const MIN_ZOOM_BY_RANK = [4, 4, 6, 8] as const;

/** No tile below this zoom has rivers (the world views keep their byte budget). */
export const RIVERS_MIN_ZOOM = Math.min(...MIN_ZOOM_BY_RANK);

interface RiversFile {
  scale: number;
  /** Each line: [rank, x0, y0, dx1, dy1, …] in 1/scale degrees, deltas from the previous point. */
  lines: number[][];
}

function isRiversFile(value: unknown): value is RiversFile {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Partial<RiversFile>;
  return typeof file.scale === 'number' && Array.isArray(file.lines);
}

/** The lines as GeoJSON for geojson-vt, each tagged with its rank. */
export function loadRiversGeoJSON(): GeoJSON.FeatureCollection<GeoJSON.LineString, { rank: number }> {
  const parsed: unknown = JSON.parse(gunzipSync(readFileSync(DATA_FILE)).toString('utf8'));
  if (!isRiversFile(parsed)) throw new Error(`${DATA_FILE.pathname}: not a rivers file`);
  const { scale, lines } = parsed;
  const features: GeoJSON.Feature<GeoJSON.LineString, { rank: number }>[] = [];
  for (const line of lines) {
    let x = line[1];
    let y = line[2];
    const coordinates: GeoJSON.Position[] = [[x / scale, y / scale]];
    for (let i = 3; i + 1 < line.length; i += 2) {
      x += line[i];
      y += line[i + 1];
      coordinates.push([x / scale, y / scale]);
    }
    features.push({ type: 'Feature', properties: { rank: line[0] }, geometry: { type: 'LineString', coordinates } });
  }
  return { type: 'FeatureCollection', features };
}

/** The features of a cut rivers tile drawn at zoom z. */
export function visibleRivers(features: readonly GeoJSONVTFeature[], z: number): GeoJSONVTFeature[] {
  return features.filter((feature) => z >= (MIN_ZOOM_BY_RANK[Number(feature.tags?.rank)] ?? Infinity));
}
