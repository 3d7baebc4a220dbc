/**
 * Lakes and wide rivers for the offline basemap's `water` layer, from OpenStreetMap water
 * polygons simplified to 1 km (the @geo-maps earth-lakes-1km and earth-rivers-1km packages,
 * ODbL). Neither has names, and the rivers are their surfaces (wide stretches and estuaries);
 * the centre lines are the `rivers` layer (river-data.ts).
 *
 * Polygons under WATER_MIN_KM2, and triangles, are dropped (at 1 km resolution they are blobs, and they are
 * most of the 180 000 polygons); what is left (~60 000) is cut by geojson-vt once, and each tile
 * keeps only the polygons big enough to see at its zoom, so the world view stays small
 * (the first view's budget is checked by bench/geo/tiles.bench.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { GeoJSONVTFeature } from '@maplibre/geojson-vt';
import { ringKm2 } from '../../../src/modules/geo/land-index.ts';

type PolygonCoordinates = number[][][];

export type WaterKind = 'lake' | 'river';

export const WATER_MIN_KM2 = 5;
/**
 * Smallest polygon (km²) a tile carries at each zoom (index = zoom, 512-px tiles): the great
 * lakes on the world view, a lake of a few km² from zoom 8.
 */
const MIN_KM2_BY_ZOOM = [5000, 2000, 800, 300, 100, 40, 15, 6, WATER_MIN_KM2] as const;

function readPolygons(require: NodeJS.Require, file: string): PolygonCoordinates[] {
  const geo = JSON.parse(readFileSync(require.resolve(file), 'utf8')) as {
    geometries: Array<{ type: string; coordinates: PolygonCoordinates[] }>;
  };
  return geo.geometries.flatMap((g) => (g.type === 'MultiPolygon' ? g.coordinates : []));
}

/** The water polygons kept, as GeoJSON for geojson-vt, each tagged with its kind and area. */
export function loadWaterGeoJSON(): GeoJSON.FeatureCollection {
  const require = createRequire(import.meta.url);
  const sources: Array<[WaterKind, string]> = [
    ['lake', '@geo-maps/earth-lakes-1km/map.geo.json'],
    ['river', '@geo-maps/earth-rivers-1km/map.geo.json'],
  ];
  const features: GeoJSON.Feature[] = [];
  for (const [kind, file] of sources) {
    for (const coordinates of readPolygons(require, file)) {
      const km2 = ringKm2(coordinates[0]);
      // A triangle (4 positions, closed) is what 1 km generalisation leaves of a lake's outline,
      // not its shape: drawn over a city it is a blue wedge where there is no water.
      if (km2 >= WATER_MIN_KM2 && coordinates[0].length > 4)
        features.push({ type: 'Feature', properties: { kind, km2 }, geometry: { type: 'Polygon', coordinates } });
    }
  }
  return { type: 'FeatureCollection', features };
}

/** The features of a cut water tile worth drawing at zoom z, tagged with their kind only. */
export function visibleWater(features: readonly GeoJSONVTFeature[], z: number): GeoJSONVTFeature[] {
  const min = MIN_KM2_BY_ZOOM[Math.min(z, MIN_KM2_BY_ZOOM.length - 1)];
  const kept: GeoJSONVTFeature[] = [];
  for (const feature of features) {
    if (Number(feature.tags?.km2) >= min) kept.push({ ...feature, tags: { kind: feature.tags?.kind as WaterKind } });
  }
  return kept;
}
