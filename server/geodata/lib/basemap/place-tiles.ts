/**
 * The `places` layer of a tile: the places whose minZoom the tile's zoom has reached (see
 * places-data.ts), as points with name, population, rank and kind. Places are kept in one
 * Flatbush per minZoom, so a tile reads only the buckets it shows and only inside its bounds:
 * a world tile reads the few hundred biggest cities, not the 135 000 villages.
 *
 * The deepest tiles (GEO_TILE_MAX_ZOOM) carry every place, those meant for deeper zooms tagged
 * with their `minzoom`: the map overzooms these tiles and the style's filter keeps a village for
 * the zoom it was meant for.
 *
 * Points carry no buffer: MapLibre does not clip labels at tile edges, and a point repeated in
 * its neighbours' buffers would only cost bytes.
 */
import Flatbush from 'flatbush';
import type { GeoJSONVTFeaturePoint } from '@maplibre/geojson-vt';
import { GEO_TILE_MAX_ZOOM } from '@moodmap/core';
import { getPlaces, type Place } from '../places-data.ts';

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

/** One bucket per minZoom, from 0 to the deepest any place has. */
function buildBuckets(): Bucket[] {
  const all = getPlaces();
  const deepest = all.reduce((max, p) => Math.max(max, p.minZoom), 0);
  const byZoom: Place[][] = Array.from({ length: deepest + 1 }, () => []);
  for (const place of all) byZoom[place.minZoom].push(place);
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

interface Found {
  place: Place;
  px: number;
  py: number;
}

/** The places of buckets 0…upTo inside tile z/x/y, at their unit-square positions. */
function placesIn(z: number, x: number, y: number, upTo: number): Found[] {
  buckets ??= buildBuckets();
  const n = 2 ** z;
  // Half-open bounds: a point on the shared edge of two tiles belongs to one of them only.
  const [minX, minY, maxX, maxY] = [x / n, y / n, (x + 1) / n, (y + 1) / n];
  const found: Found[] = [];
  for (let zoom = 0; zoom <= Math.min(upTo, buckets.length - 1); zoom++) {
    const bucket = buckets[zoom];
    if (bucket.places.length === 0) continue;
    for (const i of bucket.index.search(minX, minY, maxX, maxY)) {
      const px = bucket.x[i];
      const py = bucket.y[i];
      if (px >= maxX || py >= maxY) continue;
      found.push({ place: bucket.places[i], px, py });
    }
  }
  return found;
}

/** Whether any place, whatever its minZoom, lies in tile z/x/y. */
export function hasPlaces(z: number, x: number, y: number): boolean {
  return placesIn(z, x, y, Infinity).length > 0;
}

/** The places of tile z/x/y as points of a transformed geojson-vt tile (in `extent` units), most important first. */
export function placeFeatures(z: number, x: number, y: number, extent: number): GeoJSONVTFeaturePoint[] {
  const deepest = z >= GEO_TILE_MAX_ZOOM;
  const found = placesIn(z, x, y, deepest ? Infinity : z);
  found.sort((a, b) => a.place.rank - b.place.rank || b.place.population - a.place.population);
  const n = 2 ** z;
  return found.map(({ place, px, py }) => {
    const tags: Record<string, string | number> = {
      name: place.name,
      population: place.population,
      rank: place.rank,
      kind: place.kind,
    };
    if (place.minZoom > z) tags.minzoom = place.minZoom;
    return { type: 1, geometry: [[Math.round((px * n - x) * extent), Math.round((py * n - y) * extent)]], tags };
  });
}
