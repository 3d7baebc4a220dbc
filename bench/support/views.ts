/**
 * The viewport URLs the web app requests, reproduced outside the browser: MapLibre's bounds for a
 * map of W×H CSS pixels at a centre and a (fractional) zoom with 512-px tiles, the 25 % margin of
 * map's margin and the outward rounding on a grid that follows the zoom (core's padBounds and
 * roundBounds, which the web app uses), and the zoom floored.
 */
import { type Bbox, padBounds, roundBounds } from '@moodmap/core';
import { CITIES, pick, random } from './world.ts';

export type { Bbox };

/** MapLibre GL's tile size: the world is 512·2^zoom pixels wide. */
const TILE_PX = 512;
const MAX_LAT = 85.051129;

const mercY = (lat: number) => 0.5 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / (2 * Math.PI);
const mercLat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

/** What map.getBounds() reports (renderWorldCopies off: latitudes clamped to the Mercator range). */
export function mapBounds(lat: number, lon: number, zoom: number, width: number, height: number): Bbox {
  const world = TILE_PX * 2 ** zoom;
  const halfLon = (width / 2 / world) * 360;
  const y = mercY(Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)));
  const halfY = height / 2 / world;
  return [lon - halfLon, mercLat(Math.min(1, y + halfY)), lon + halfLon, mercLat(Math.max(0, y - halfY))];
}

export { padBounds as paddedBounds, roundBounds };

export interface View {
  kind: 'city' | 'regional' | 'world';
  device: 'mobile' | 'desktop' | 'tablet';
  zoom: number;
  /** What the app sends: padded, rounded bounds and the floored zoom. */
  bbox: Bbox;
  path: string;
}

export function requestedView(
  lat: number,
  lon: number,
  zoom: number,
  width: number,
  height: number,
): { bbox: Bbox; zoom: number; path: string } {
  const bbox = roundBounds(padBounds(mapBounds(lat, lon, zoom, width, height)), zoom);
  const z = Math.floor(zoom);
  const [west, south, east, north] = bbox;
  const params = new URLSearchParams({
    west: String(west),
    south: String(south),
    east: String(east),
    north: String(north),
    zoom: String(z),
  });
  return { bbox, zoom: z, path: `/api/posts/viewport?${params}` };
}

const DEVICES = [
  { device: 'mobile' as const, width: 390, height: 844, weight: 55 },
  { device: 'desktop' as const, width: 1280, height: 800, weight: 35 },
  { device: 'tablet' as const, width: 820, height: 1180, weight: 10 },
];

/**
 * `count` views as users make them, city-heavy: 75 % in a city (weighted by size) at zoom 11–15
 * near its centre, 15 % regional (zoom 5–10), 10 % world or continent (zoom 1–4, including the
 * app's default views). Duplicates are kept: popular views repeat, as they do for real users.
 */
export function viewMix(count: number, seed: number): View[] {
  const next = random(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const cityWeights = CITIES.map((c) => c[3]);
  const views: View[] = [];
  for (let i = 0; i < count; i++) {
    const { device, width, height } = pick(
      DEVICES,
      DEVICES.map((d) => d.weight),
      next(),
    );
    const [, cLat, cLon] = pick(CITIES, cityWeights, next());
    const r = next();
    let kind: View['kind'];
    let lat: number;
    let lon: number;
    let zoom: number;
    if (r < 0.75) {
      kind = 'city';
      zoom = 11 + next() * 4;
      lat = cLat + gauss() * 0.04;
      lon = cLon + gauss() * 0.06;
    } else if (r < 0.9) {
      kind = 'regional';
      zoom = 5 + next() * 5;
      lat = cLat + gauss() * 1;
      lon = cLon + gauss() * 1.5;
    } else {
      kind = 'world';
      const preset = next();
      // The app's first screen on phones and desktops (core MAP.mobileView / desktopView).
      if (preset < 0.3) [lat, lon, zoom] = [-15, 47, 3.2];
      else if (preset < 0.5) [lat, lon, zoom] = [30, 20, 2.5];
      else [lat, lon, zoom] = [cLat, cLon, 1 + next() * 3];
    }
    views.push({ kind, device, ...requestedView(Math.max(-80, Math.min(80, lat)), lon, zoom, width, height) });
  }
  return views;
}
