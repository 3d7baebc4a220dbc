/**
 * 'Position approximative': where an approximate post is published.
 *
 * The world is cut into cells of about 1 km: rows 0.01° of latitude high (1.11 km), each row cut
 * into a whole number of equal columns about as wide (so the columns meet at ±180°). A post is
 * published at a point that depends on its cell only, never on the exact point inside it: posts
 * from the same place always land on the same published point, so averaging many of them tells
 * nothing more than the cell.
 *
 * That point is the cell's centre when it lies inside the land polygons. Otherwise (a coastal
 * cell whose centre is at sea) it is the nearest land point to the centre among a 9 × 9 lattice
 * inside the cell; when the cell holds none (its land is a sliver the polygons miss), the nearest
 * one among the lattices of the eight neighbouring cells; then the nearest lattice point of the
 * cell the land checker accepts (its coast tolerance); and as a last resort the centre itself.
 * The exact point is never a candidate, so it is never published, whatever the coast.
 *
 * "Inside the land polygons" is the land checker without its coast tolerance: the tolerance
 * exists so that coastal towns outside the generalised polygons can post, not to publish points
 * offshore. The land check of the post itself is made on the exact point (service.ts).
 */
import type { LandChecker } from '../geo/land-check.ts';

/** Height of a cell in degrees of latitude (~1.11 km). */
export const CELL_DEG = 0.01;
/** Side of the lattice of candidate points inside a cell (odd: its middle point is the centre). */
const LATTICE = 9;
const ROWS = Math.round(180 / CELL_DEG);
/** Published coordinates are rounded to 6 decimals (~0.1 m): the lattice's own points, in short. */
const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

export interface Point {
  latitude: number;
  longitude: number;
}

export interface Cell {
  row: number;
  column: number;
  /** Columns in this row. */
  columns: number;
  centre: Point;
  /** Cell size in degrees. */
  height: number;
  width: number;
}

/** Wraps a longitude into [-180, 180). */
const wrap = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;

function cellAt(row: number, column: number): Cell {
  const r = Math.min(Math.max(row, 0), ROWS - 1);
  const latitude = -90 + (r + 0.5) * CELL_DEG;
  // As many columns as fit at ~1.11 km (at least one near the poles): equal widths that add up to 360°.
  const columns = Math.max(1, Math.floor((360 * Math.cos((latitude * Math.PI) / 180)) / CELL_DEG));
  const width = 360 / columns;
  const c = ((column % columns) + columns) % columns;
  return {
    row: r,
    column: c,
    columns,
    height: CELL_DEG,
    width,
    centre: { latitude, longitude: -180 + (c + 0.5) * width },
  };
}

/** The cell holding a point. */
export function cellOf(latitude: number, longitude: number): Cell {
  const row = Math.floor((latitude + 90) / CELL_DEG);
  const probe = cellAt(row, 0);
  return cellAt(probe.row, Math.floor((wrap(longitude) + 180) / probe.width));
}

/** The lattice points of a cell (its centre among them). */
function lattice(cell: Cell): Point[] {
  const points: Point[] = [];
  for (let a = 0; a < LATTICE; a++) {
    for (let b = 0; b < LATTICE; b++) {
      const latitude = cell.centre.latitude + ((a + 0.5) / LATTICE - 0.5) * cell.height;
      const longitude = wrap(cell.centre.longitude + ((b + 0.5) / LATTICE - 0.5) * cell.width);
      points.push({ latitude: round6(latitude), longitude: round6(longitude) });
    }
  }
  return points;
}

/** Squared distance on the local plane (longitudes shrunk by cos(latitude)): only compared. */
function planeDistance2(a: Point, b: Point): number {
  const dLat = a.latitude - b.latitude;
  const dLon = wrap(a.longitude - b.longitude) * Math.cos((b.latitude * Math.PI) / 180);
  return dLat * dLat + dLon * dLon;
}

/** The first point nearest `to` that `accepts`; ties keep the lattice order (deterministic). */
function nearest(points: Point[], to: Point, accepts: (p: Point) => boolean): Point | undefined {
  const sorted = points.map((p, i) => ({ p, i, d: planeDistance2(p, to) })).sort((x, y) => x.d - y.d || x.i - y.i);
  return sorted.find(({ p }) => accepts(p))?.p;
}

function neighbours(cell: Cell): Cell[] {
  const seen = new Set([`${cell.row}:${cell.column}`]);
  const cells: Cell[] = [];
  for (const dr of [-1, 0, 1]) {
    for (const dc of [-1, 0, 1]) {
      const lat = cell.centre.latitude + dr * cell.height;
      if (lat <= -90 || lat >= 90) continue;
      const next = cellOf(lat, cell.centre.longitude + dc * cell.width);
      const key = `${next.row}:${next.column}`;
      if (!seen.has(key)) {
        seen.add(key);
        cells.push(next);
      }
    }
  }
  return cells;
}

export interface SnapCheckers {
  /** Inside the land polygons (no coast tolerance). */
  inside: LandChecker;
  /** The post's own land check (with its coast tolerance). */
  land: LandChecker;
}

/** The published point of a cell (see the file's comment for the order of the fallbacks). */
export function publishedPointOf(cell: Cell, checkers: SnapCheckers): Point {
  const inside = (p: Point) => checkers.inside.isOnLand(p.latitude, p.longitude);
  const own = lattice(cell);
  return (
    nearest(own, cell.centre, inside) ??
    nearest(neighbours(cell).flatMap(lattice), cell.centre, inside) ??
    nearest(own, cell.centre, (p) => checkers.land.isOnLand(p.latitude, p.longitude)) ?? {
      latitude: round6(cell.centre.latitude),
      longitude: round6(cell.centre.longitude),
    }
  );
}

const CACHE_MAX = 10_000;

/**
 * Where an approximate post made at (latitude, longitude) is published, on these checkers (the
 * context's geo engine). Answers never change (static data): a bounded cache keeps a busy cell
 * from re-testing its lattice.
 */
export function createApproximator(checkers: SnapCheckers): (latitude: number, longitude: number) => Point {
  const cache = new Map<string, Point>();
  return (latitude, longitude) => {
    const cell = cellOf(latitude, longitude);
    const key = `${cell.row}:${cell.column}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const point = publishedPointOf(cell, checkers);
    if (cache.size >= CACHE_MAX) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(key, point);
    return point;
  };
}
