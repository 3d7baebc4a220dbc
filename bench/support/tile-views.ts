/**
 * The basemap tiles MapLibre asks for to draw a view, reproduced outside the browser: a map of
 * W×H CSS pixels at a centre and a fractional zoom, 512-px vector tiles requested at the floored
 * zoom (capped at the source's maxzoom), one copy of the world (the app sets renderWorldCopies
 * off), so the tiles are those the viewport's rectangle touches.
 */
import { GEO_TILE_MAX_ZOOM, MAP } from '@moodmap/core';
import { CITIES, pick, random } from './world.ts';

const TILE_PX = 512;
const MAX_LAT = 85.051129;

const mercX = (lon: number) => (lon + 180) / 360;
const mercY = (lat: number) => {
  const clamped = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat));
  return 0.5 - Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360)) / (2 * Math.PI);
};

export interface TileView {
  name: string;
  latitude: number;
  longitude: number;
  zoom: number;
  width: number;
  height: number;
}

/** `z/x/y` of every tile the view draws. */
export function viewTiles(
  { latitude, longitude, zoom, width, height }: TileView,
  maxZoom = GEO_TILE_MAX_ZOOM,
): string[] {
  const z = Math.max(0, Math.min(maxZoom, Math.floor(zoom)));
  const world = TILE_PX * 2 ** zoom;
  const n = 2 ** z;
  const cx = mercX(longitude);
  const cy = mercY(latitude);
  const clamp = (v: number) => Math.max(0, Math.min(n - 1, Math.floor(v * n)));
  const [x0, x1] = [clamp(cx - width / 2 / world), clamp(cx + width / 2 / world)];
  const [y0, y1] = [clamp(cy - height / 2 / world), clamp(cy + height / 2 / world)];
  const tiles: string[] = [];
  for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) tiles.push(`${z}/${x}/${y}`);
  return tiles;
}

/** The app's first screen (core MAP.desktopView / mobileView, web/src/features/map/map-view.ts). */
export const FIRST_VIEWS: TileView[] = [
  { name: 'desktop 1440×900', ...MAP.desktopView, width: 1440, height: 900 },
  { name: 'mobile 390×844', ...MAP.mobileView, width: 390, height: 844 },
];

/** A city view of each kind, where a user looks at posts (Paris, zoom 14, both screens). */
export const CITY_VIEWS: TileView[] = [
  { name: 'Paris z14 desktop', latitude: 48.857, longitude: 2.352, zoom: 14, width: 1440, height: 900 },
  { name: 'Paris z14 mobile', latitude: 48.857, longitude: 2.352, zoom: 14, width: 390, height: 844 },
];

const DEVICES = [
  { width: 390, height: 844, weight: 55 },
  { width: 1280, height: 800, weight: 35 },
  { width: 820, height: 1180, weight: 10 },
];

/**
 * The tile URLs of `count` views made as users make them (the feed bench's proportions, see
 * views.ts): 75 % in a city at zoom 11–15, 15 % regional (5–10), 10 % world or continent (1–4,
 * with the app's two first screens), on phones, desktops and tablets; each view's tiles in the
 * order MapLibre would ask them. Duplicates are kept: popular tiles repeat.
 */
export function tileMix(count: number, seed: number): string[] {
  const next = random(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const weights = CITIES.map((c) => c[3]);
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const { width, height } = pick(
      DEVICES,
      DEVICES.map((d) => d.weight),
      next(),
    );
    const [, lat, lon] = pick(CITIES, weights, next());
    const r = next();
    let view: Omit<TileView, 'name' | 'width' | 'height'>;
    if (r < 0.75) view = { latitude: lat + gauss() * 0.04, longitude: lon + gauss() * 0.06, zoom: 11 + next() * 4 };
    else if (r < 0.9) view = { latitude: lat + gauss(), longitude: lon + gauss() * 1.5, zoom: 5 + next() * 5 };
    else if (next() < 0.5) view = next() < 0.6 ? MAP.mobileView : MAP.desktopView;
    else view = { latitude: lat, longitude: lon, zoom: 1 + next() * 3 };
    const clamped = { ...view, latitude: Math.max(-80, Math.min(80, view.latitude)), name: '', width, height };
    for (const tile of viewTiles(clamped)) urls.push(`/api/geo/tiles/${tile}.pbf`);
  }
  return urls;
}
