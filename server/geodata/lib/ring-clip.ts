/**
 * Cutting rings to boxes (build time: the windows of finer coast data, land-precise.ts).
 *
 * Sutherland–Hodgman against the box's four sides: a ring comes out as one closed ring, the
 * parts outside replaced by paths along the box's sides. Where a ring leaves the box and comes
 * back, those paths may run along a side and back; even-odd point tests and fills are unchanged
 * by such pairs. A point computed on a side gets the side's coordinate exactly, so the cut edges
 * can be told from the coast (server/src/modules/geo/land-index.ts).
 */
import type { Box } from '../../src/modules/geo/land-index.ts';

export interface FlatRing {
  xs: Float64Array;
  ys: Float64Array;
}

/** One side of the box: keep points with `axis` coordinate ≥ limit (sign 1) or ≤ limit (sign -1). */
function clipSide(xs: number[], ys: number[], axis: 0 | 1, limit: number, sign: 1 | -1): [number[], number[]] {
  const outX: number[] = [];
  const outY: number[] = [];
  const n = xs.length;
  if (n === 0) return [outX, outY];
  const inside = (i: number) => ((axis === 0 ? xs[i] : ys[i]) - limit) * sign >= 0;
  for (let i = 0; i < n; i++) {
    const j = (i + n - 1) % n; // the previous point (the ring is open here: no repeated last point)
    const here = inside(i);
    if (here !== inside(j)) {
      // The edge j → i crosses the side: add the crossing, exactly on it.
      const a = axis === 0 ? xs[j] : ys[j];
      const b = axis === 0 ? xs[i] : ys[i];
      const t = (limit - a) / (b - a);
      if (axis === 0) {
        outX.push(limit);
        outY.push(ys[j] + t * (ys[i] - ys[j]));
      } else {
        outX.push(xs[j] + t * (xs[i] - xs[j]));
        outY.push(limit);
      }
    }
    if (here) {
      outX.push(xs[i]);
      outY.push(ys[i]);
    }
  }
  return [outX, outY];
}

/** The closed ring cut to the box, or null when nothing of it is inside. */
export function clipRing(ring: FlatRing, [west, south, east, north]: Box): FlatRing | null {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < ring.xs.length; i++) {
    if (ring.xs[i] < minX) minX = ring.xs[i];
    if (ring.xs[i] > maxX) maxX = ring.xs[i];
    if (ring.ys[i] < minY) minY = ring.ys[i];
    if (ring.ys[i] > maxY) maxY = ring.ys[i];
  }
  if (maxX <= west || minX >= east || maxY <= south || minY >= north) return null;
  if (minX >= west && maxX <= east && minY >= south && maxY <= north) return ring;
  // Drop the repeated closing point; the passes treat the ring as cyclic.
  let xs = Array.from(ring.xs.subarray(0, -1));
  let ys = Array.from(ring.ys.subarray(0, -1));
  [xs, ys] = clipSide(xs, ys, 0, west, 1);
  [xs, ys] = clipSide(xs, ys, 0, east, -1);
  [xs, ys] = clipSide(xs, ys, 1, south, 1);
  [xs, ys] = clipSide(xs, ys, 1, north, -1);
  if (xs.length < 3) return null;
  xs.push(xs[0]);
  ys.push(ys[0]);
  return { xs: Float64Array.from(xs), ys: Float64Array.from(ys) };
}

const contains = (outer: Box, inner: Box) =>
  inner[0] >= outer[0] && inner[2] <= outer[2] && inner[1] >= outer[1] && inner[3] <= outer[3];

/** Below this size (degrees) a box is no longer split: its windows are cut directly. */
const SMALLEST_SPLIT = 0.5;

export interface ClippedRing {
  /** The ring's position in the input. */
  index: number;
  ring: FlatRing;
}

/**
 * Every ring cut to every window: result[w] lists the rings with something inside window w.
 * Rings are first cut to quarters of the box holding the windows, recursively, so that a
 * continent's million points are read a few times, not once per window.
 */
export function clipToWindows(rings: readonly FlatRing[], box: Box, windows: readonly Box[]): ClippedRing[][] {
  const result: ClippedRing[][] = windows.map(() => []);
  const cut = (current: readonly ClippedRing[], to: Box): ClippedRing[] => {
    const kept: ClippedRing[] = [];
    for (const { index, ring } of current) {
      const clipped = clipRing(ring, to);
      if (clipped) kept.push({ index, ring: clipped });
    }
    return kept;
  };
  const visit = (current: readonly ClippedRing[], area: Box, members: readonly number[]) => {
    const [west, south, east, north] = area;
    const midX = (west + east) / 2,
      midY = (south + north) / 2;
    const quarters: Box[] = [
      [west, south, midX, midY],
      [midX, south, east, midY],
      [west, midY, midX, north],
      [midX, midY, east, north],
    ];
    const small = east - west <= SMALLEST_SPLIT && north - south <= SMALLEST_SPLIT;
    const byQuarter: number[][] = quarters.map(() => []);
    for (const w of members) {
      const q = small ? -1 : quarters.findIndex((quarter) => contains(quarter, windows[w]));
      if (q < 0) result[w] = cut(current, windows[w]);
      else byQuarter[q].push(w);
    }
    quarters.forEach((quarter, q) => {
      if (byQuarter[q].length > 0) visit(cut(current, quarter), quarter, byQuarter[q]);
    });
  };
  visit(
    cut(
      rings.map((ring, index) => ({ index, ring })),
      box,
    ),
    box,
    windows.map((_, w) => w),
  );
  return result;
}
