/**
 * Which sockets watch a point: a spatial index over the views of one instance's sockets, so a
 * post event costs about as much as the sockets it goes to, not one test per connected socket.
 *
 * A hierarchy of grids: level k cuts the world into 2^k × 2^k cells (360/2^k degrees of
 * longitude by 180/2^k of latitude). A view is filed at the finest level whose cells are at
 * least as large as the view, so it lands in at most 2 × 2 cells (columns wrap around the
 * antimeridian). A point is looked up in its one cell per level that holds views; the views
 * filed there are about the cell's size (a map view is no long thin strip), so most of those
 * tested do contain the point. Views change at every map move (debounced):
 * filing one is a handful of map operations, where a packed index (flatbush, kdbush, already in
 * the lock file for the map and the land check) would be rebuilt whole on each change.
 */
import { type View, viewContains, viewWidth, wrapLongitude } from './view.ts';

/** Finest level: cells of about 600 × 300 m at the equator, smaller than a street-level view. */
const MAX_LEVEL = 16;
/** A cell key: level, column and row in one number (each below 2^20, level ≤ 16). */
const keyOf = (level: number, x: number, y: number) => level * 2 ** 40 + x * 2 ** 20 + y;

function column(longitude: number, level: number): number {
  const n = 2 ** level;
  return Math.min(n - 1, Math.floor(((wrapLongitude(longitude) + 180) / 360) * n));
}

function row(latitude: number, level: number): number {
  const n = 2 ** level;
  return Math.min(n - 1, Math.max(0, Math.floor(((latitude + 90) / 180) * n)));
}

/** The finest level whose cells are at least as wide and as tall as the view. */
function levelFor(view: View): number {
  const finest = (span: number, whole: number) => (span > 0 ? Math.floor(Math.log2(whole / span)) : MAX_LEVEL);
  return Math.max(0, Math.min(MAX_LEVEL, finest(viewWidth(view), 360), finest(view.north - view.south, 180)));
}

function cellsOf(view: View, level: number): number[] {
  const n = 2 ** level;
  const columns: number[] = [];
  if (view.allLongitudes) {
    for (let x = 0; x < n; x++) columns.push(x);
  } else {
    // Eastwards from the west edge's column to the east edge's, wrapping across the antimeridian.
    const last = column(view.east, level);
    for (let x = column(view.west, level), i = 0; i < n; x = (x + 1) % n, i++) {
      columns.push(x);
      if (x === last) break;
    }
  }
  const keys: number[] = [];
  for (let y = row(view.south, level); y <= row(view.north, level); y++) {
    for (const x of columns) keys.push(keyOf(level, x, y));
  }
  return keys;
}

interface Entry<T> {
  item: T;
  view: View;
  level: number;
  keys: number[];
}

export interface ViewIndex<T> {
  /** Files `item` under `view`, replacing its previous view. */
  set(item: T, view: View): void;
  delete(item: T): void;
  /**
   * Calls `visit` once for each item whose view contains the point; returns how many views
   * were tested (the index's cost, which stays near the number of matches).
   */
  forEachContaining(latitude: number, longitude: number, visit: (item: T) => void): number;
  readonly size: number;
}

export function createViewIndex<T>(): ViewIndex<T> {
  const entries = new Map<T, Entry<T>>();
  const cells = new Map<number, Set<Entry<T>>>();
  /** How many views are filed at each level: a query skips the empty levels. */
  const perLevel = new Array<number>(MAX_LEVEL + 1).fill(0);

  function remove(item: T): void {
    const entry = entries.get(item);
    if (!entry) return;
    entries.delete(item);
    perLevel[entry.level]--;
    for (const key of entry.keys) {
      const cell = cells.get(key);
      cell?.delete(entry);
      if (cell?.size === 0) cells.delete(key);
    }
  }

  return {
    set(item, view) {
      remove(item);
      const level = levelFor(view);
      const entry: Entry<T> = { item, view, level, keys: cellsOf(view, level) };
      entries.set(item, entry);
      perLevel[level]++;
      for (const key of entry.keys) {
        let cell = cells.get(key);
        if (!cell) cells.set(key, (cell = new Set()));
        cell.add(entry);
      }
    },
    delete: remove,
    forEachContaining(latitude, longitude, visit) {
      let tested = 0;
      for (let level = 0; level <= MAX_LEVEL; level++) {
        if (perLevel[level] === 0) continue;
        const cell = cells.get(keyOf(level, column(longitude, level), row(latitude, level)));
        if (!cell) continue;
        for (const entry of cell) {
          tested++;
          if (viewContains(entry.view, latitude, longitude)) visit(entry.item);
        }
      }
      return tested;
    },
    get size() {
      return entries.size;
    },
  };
}
