/**
 * The `places` layer of a tile: the places whose minZoom the tile's zoom has reached (see
 * places-data.ts), as points with name, population, rank and kind. Places are kept in one
 * Flatbush per minZoom, so a tile reads only the buckets it shows and only inside its bounds:
 * a world tile reads the few hundred biggest cities, not the 135 000 villages.
 *
 * Points carry no buffer: MapLibre does not clip labels at tile edges, and a point repeated in
 * its neighbours' buffers would only cost bytes.
 */
import Flatbush from 'flatbush';
import type { GeoJSONVTFeaturePoint } from '@maplibre/geojson-vt';
import { GEO_TILE_MAX_ZOOM } from '@moodmap/core';
import { getPlaces, type Place } from './places-data.ts';

/** Web Mercator on the unit square (x east from −180°, y south from +85.05°). */
const mercatorX = (lon: number) => (lon + 180) / 360;
function mercatorY(lat: number): number {
  const sin = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}

interface Bucket {
  index: Flatbush;
  places: Place[];
  x: Float64Array;
  y: Float64Array;
}

let buckets: Bucket[] | undefined;

function buildBuckets(): Bucket[] {
  const byZoom: Place[][] = Array.from({ length: GEO_TILE_MAX_ZOOM + 1 }, () => []);
  for (const place of getPlaces()) byZoom[Math.min(place.minZoom, GEO_TILE_MAX_ZOOM)].push(place);
  return byZoom.map((places) => {
    const index = new Flatbush(Math.max(1, places.length));
    const x = Float64Array.from(places, (p) => mercatorX(p.longitude));
    const y = Float64Array.from(places, (p) => mercatorY(p.latitude));
    for (let i = 0; i < places.length; i++) index.add(x[i], y[i]);
    if (places.length === 0) index.add(-1, -1);
    index.finish();
    return { index, places, x, y };
  });
}

/** Builds the per-zoom indexes now (with the places), so that no request pays it. */
export function preparePlaceTiles(): void {
  buckets ??= buildBuckets();
}

/** The places of tile z/x/y as points of a transformed geojson-vt tile (in `extent` units), most important first. */
export function placeFeatures(z: number, x: number, y: number, extent: number): GeoJSONVTFeaturePoint[] {
  buckets ??= buildBuckets();
  const n = 2 ** z;
  // Half-open bounds: a point on the shared edge of two tiles belongs to one of them only.
  const [minX, minY, maxX, maxY] = [x / n, y / n, (x + 1) / n, (y + 1) / n];
  const found: Array<{ place: Place; px: number; py: number }> = [];
  for (let zoom = 0; zoom <= Math.min(z, GEO_TILE_MAX_ZOOM); zoom++) {
    const bucket = buckets[zoom];
    if (bucket.places.length === 0) continue;
    for (const i of bucket.index.search(minX, minY, maxX, maxY)) {
      const px = bucket.x[i];
      const py = bucket.y[i];
      if (px >= maxX || py >= maxY) continue;
      found.push({ place: bucket.places[i], px, py });
    }
  }
  found.sort((a, b) => a.place.rank - b.place.rank || b.place.population - a.place.population);
  return found.map(({ place, px, py }) => ({
    type: 1,
    geometry: [[Math.round((px * n - x) * extent), Math.round((py * n - y) * extent)]],
    tags: { name: place.name, population: place.population, rank: place.rank, kind: place.kind },
  }));
}
