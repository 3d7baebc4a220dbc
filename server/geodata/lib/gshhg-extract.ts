/**
 * What the land takes from GSHHG's full-resolution coast (gshhg.ts), where the 1 km OSM land
 * fails the people who post:
 * - islands: the islets OSM's generalisation dropped (Mont-Saint-Michel, the skerries off a
 *   harbour town), near enough to a place to be somewhere people go;
 * - windows: boxes a few kilometres wide around the places OSM still leaves at sea — the centre
 *   of Ajaccio on its peninsula, towns on spits and lagoons — with every GSHHG ring cut to them
 *   (ring-clip.ts): land, lakes, islands in lakes, so that even-odd over a window's rings is
 *   GSHHG's land there.
 * The rest of the world keeps the OSM coast, closer to the real shore than GSHHG's in most
 * places. Build time: server/geodata/land/extract-gshhg.ts chooses and cuts them (it needs
 * GSHHG, a Debian package) and writes them beside itself; land-precise.ts adds them to the land.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import Flatbush from 'flatbush';
import { z } from 'zod';
import {
  buildLandIndex,
  type Box,
  type LandIndex,
  type LandPolygon,
  KM_PER_DEGREE,
  ringKm2,
  UNITS_PER_DEGREE,
} from '../../src/modules/geo/land-index.ts';
import type { GshhgRing } from './gshhg.ts';
import { clipToWindows, type FlatRing } from './ring-clip.ts';
import { wind, type PolygonRings, type Ring } from './land-repair.ts';

/** Half the side of a window around a place: the place's town, not the whole coast. */
export const WINDOW_KM = 2;
/** Window sides sit on this grid (degrees), so that windows of nearby places merge cleanly. */
const WINDOW_GRID = 0.01;
/**
 * Islands kept: from 0.05 km² (a 200 × 250 m islet; smaller ones are rocks) to 5 km² (bigger
 * ones the 1 km generalisation keeps), within this distance of a place: Mont-Saint-Michel is
 * 9 km from Pontorson, the nearest place of a thousand inhabitants.
 */
const ISLAND_MIN_KM2 = 0.05;
const ISLAND_MAX_KM2 = 5;
export const ISLAND_PLACE_KM = 10;

export const GSHHG_EXTRACT_FILE = new URL('../land/gshhg.json.gz', import.meta.url);

export interface CoastWindow {
  box: Box;
  /** Every GSHHG ring cut to the box (land, lakes, islands in lakes): even-odd over them is the land. */
  rings: Ring[];
}

export interface GshhgExtract {
  /** Each island: its shore, then its lakes. */
  islands: PolygonRings[];
  windows: CoastWindow[];
}

type Point = { latitude: number; longitude: number };

const snapDown = (v: number) => Math.floor(v / WINDOW_GRID + 1e-9) * WINDOW_GRID;
const snapUp = (v: number) => Math.ceil(v / WINDOW_GRID - 1e-9) * WINDOW_GRID;
const round6 = (v: number) => Math.round(v * UNITS_PER_DEGREE) / UNITS_PER_DEGREE;

/** The box `km` around a point, on the window grid, within the map. */
function boxAround(lat: number, lon: number, km: number): Box {
  const dLat = km / KM_PER_DEGREE;
  const dLon = dLat / Math.max(Math.cos((lat * Math.PI) / 180), 0.01);
  return [
    round6(Math.max(-180, snapDown(lon - dLon))),
    round6(Math.max(-85, snapDown(lat - dLat))),
    round6(Math.min(180, snapUp(lon + dLon))),
    round6(Math.min(85, snapUp(lat + dLat))),
  ];
}

const overlaps = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** Boxes merged until none overlaps or touches another (each merge takes both boxes' bounds). */
export function mergeBoxes(boxes: readonly Box[]): Box[] {
  let merged = [...boxes];
  for (let changed = true; changed; ) {
    changed = false;
    const next: Box[] = [];
    for (const box of merged) {
      const other = next.findIndex((b) => overlaps(b, box));
      if (other < 0) next.push(box);
      else {
        const b = next[other];
        next[other] = [Math.min(b[0], box[0]), Math.min(b[1], box[1]), Math.max(b[2], box[2]), Math.max(b[3], box[3])];
        changed = true;
      }
    }
    merged = next;
  }
  return merged.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/** A GSHHG ring with longitudes on Greenwich's side of the world (its centre within ±180). */
function centred(ring: GshhgRing): FlatRing {
  let min = Infinity,
    max = -Infinity;
  for (const x of ring.xs) {
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const shift = -360 * Math.round((min + max) / 2 / 360);
  return { xs: shift === 0 ? ring.xs : ring.xs.map((x) => x + shift), ys: ring.ys };
}

const toRing = ({ xs, ys }: FlatRing): Ring => Array.from(xs, (x, i): [number, number] => [round6(x), round6(ys[i])]);

/**
 * A point inside the ring: on the horizontal line through the middle of its box, the middle of
 * the widest stretch inside it.
 */
function interiorPoint({ xs, ys }: FlatRing): Point | null {
  let minY = Infinity,
    maxY = -Infinity;
  for (const y of ys) {
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const y = (minY + maxY) / 2;
  const crossings: number[] = [];
  for (let i = 1; i < xs.length; i++) {
    if (ys[i - 1] > y !== ys[i] > y)
      crossings.push(xs[i - 1] + ((y - ys[i - 1]) * (xs[i] - xs[i - 1])) / (ys[i] - ys[i - 1]));
  }
  crossings.sort((a, b) => a - b);
  let best: Point | null = null;
  let widest = 0;
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    if (crossings[i + 1] - crossings[i] > widest) {
      widest = crossings[i + 1] - crossings[i];
      best = { latitude: y, longitude: (crossings[i] + crossings[i + 1]) / 2 };
    }
  }
  return best;
}

/** Places near a point: a flatbush over the places, searched by a box. */
function nearPlaces(places: readonly Point[]): (lat: number, lon: number, km: number) => boolean {
  const index = new Flatbush(Math.max(1, places.length));
  for (const p of places) index.add(p.longitude, p.latitude);
  if (places.length === 0) index.add(1000, 1000);
  index.finish();
  return (lat, lon, km) => {
    const dLat = km / KM_PER_DEGREE;
    const dLon = dLat / Math.max(Math.cos((lat * Math.PI) / 180), 0.01);
    return index.search(lon - dLon, lat - dLat, lon + dLon, lat + dLat).length > 0;
  };
}

/**
 * GSHHG's islands that `isLand` (the land without them) misses at their middle, of a size
 * between ISLAND_MIN_KM2 and ISLAND_MAX_KM2, within ISLAND_PLACE_KM of a place; with their lakes
 * as holes, wound as GeoJSON wants them (shore counter-clockwise, lakes clockwise).
 */
export function selectIslands(
  rings: readonly GshhgRing[],
  isLand: (lat: number, lon: number) => boolean,
  places: readonly Point[],
): PolygonRings[] {
  const near = nearPlaces(places);
  const lakes = new Map<number, GshhgRing[]>();
  for (const ring of rings) {
    if (ring.level !== 2) continue;
    const list = lakes.get(ring.parent);
    if (list) list.push(ring);
    else lakes.set(ring.parent, [ring]);
  }
  const islands: PolygonRings[] = [];
  for (const source of rings) {
    if (source.level !== 1) continue;
    const ring = centred(source);
    const shore = toRing(ring);
    const km2 = ringKm2(shore);
    if (km2 < ISLAND_MIN_KM2 || km2 > ISLAND_MAX_KM2) continue;
    const middle = interiorPoint(ring);
    if (
      !middle ||
      isLand(middle.latitude, middle.longitude) ||
      !near(middle.latitude, middle.longitude, ISLAND_PLACE_KM)
    )
      continue;
    const shift = ring.xs[0] - source.xs[0];
    const holes = (lakes.get(source.id) ?? []).map((lake) =>
      wind(toRing({ xs: lake.xs.map((x) => x + shift), ys: lake.ys }), false),
    );
    islands.push([wind(shore, true), ...holes]);
  }
  return islands;
}

/** A window's rings as the land index reads them: one polygon, even-odd over every ring. */
export function windowPolygon(window: CoastWindow): LandPolygon {
  return { rings: window.rings, window: window.box };
}

/**
 * The windows around `places` (refused by the land without them) where GSHHG's coast, read by
 * `accepts`, takes at least one of those places as land.
 */
export function cutCoastWindows(
  rings: readonly GshhgRing[],
  places: readonly Point[],
  accepts: (index: LandIndex, lat: number, lon: number) => boolean,
): CoastWindow[] {
  const boxes = mergeBoxes(places.map((p) => boxAround(p.latitude, p.longitude, WINDOW_KM)));
  const clipped = clipToWindows(rings.map(centred), [-180, -90, 180, 90], boxes);
  const windows: CoastWindow[] = [];
  boxes.forEach((box, w) => {
    const window: CoastWindow = { box, rings: clipped[w].map(({ ring }) => toRing(ring)) };
    if (window.rings.length === 0) return;
    const index = buildLandIndex([windowPolygon(window)]);
    const inBox = (p: Point) =>
      p.longitude >= box[0] && p.longitude <= box[2] && p.latitude >= box[1] && p.latitude <= box[3];
    if (places.some((p) => inBox(p) && accepts(index, p.latitude, p.longitude))) windows.push(window);
  });
  return windows;
}

/** A ring as integers in micro-degrees, each point a difference from the previous one. */
function encodeRing(ring: Ring): number[] {
  const units = (v: number) => Math.round(v * UNITS_PER_DEGREE);
  const flat = [units(ring[0][0]), units(ring[0][1])];
  for (let i = 1; i < ring.length; i++)
    flat.push(units(ring[i][0]) - units(ring[i - 1][0]), units(ring[i][1]) - units(ring[i - 1][1]));
  return flat;
}

function decodeRing(points: readonly number[], scale: number): Ring {
  const ring: Ring = [];
  let x = 0,
    y = 0;
  for (let i = 0; i + 1 < points.length; i += 2) {
    x += points[i];
    y += points[i + 1];
    ring.push([x / scale, y / scale]);
  }
  return ring;
}

/** The extract file's JSON. */
export function encodeGshhgExtract({ islands, windows }: GshhgExtract, source: string): string {
  return JSON.stringify({
    source,
    scale: UNITS_PER_DEGREE,
    format:
      'rings: [x0, y0, dx1, dy1, …], integers in 1/scale degrees, each point a difference from the previous one. ' +
      'islands[]: [shore, lakes…]. windows[].box: [west, south, east, north] in 1/scale degrees; windows[].rings: rings (even-odd)',
    islands: islands.map((rings) => rings.map(encodeRing)),
    windows: windows.map(({ box, rings }) => ({
      box: box.map((v) => Math.round(v * UNITS_PER_DEGREE)),
      rings: rings.map(encodeRing),
    })),
  });
}

const fileSchema = z.object({
  scale: z.number().positive(),
  islands: z.array(z.array(z.array(z.number().int()))),
  windows: z.array(
    z.object({
      box: z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]),
      rings: z.array(z.array(z.number().int())),
    }),
  ),
});

/** The committed extract (server/geodata/land/gshhg.json.gz). */
export function readGshhgExtract(file: URL = GSHHG_EXTRACT_FILE): GshhgExtract {
  const { scale, islands, windows } = fileSchema.parse(JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')));
  return {
    islands: islands.map((rings) => rings.map((ring) => decodeRing(ring, scale))),
    windows: windows.map(({ box, rings }) => ({
      box: [box[0] / scale, box[1] / scale, box[2] / scale, box[3] / scale],
      rings: rings.map((ring) => decodeRing(ring, scale)),
    })),
  };
}
