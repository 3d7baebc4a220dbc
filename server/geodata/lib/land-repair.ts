/**
 * Repairs world-atlas (Natural Earth) polygons for *planar* use: drawing them as a MapLibre
 * geojson source and testing points with ray casting in plain lon/lat.
 *
 * world-atlas is built for d3's spherical geometry, so its rings are "stitched" across the 180°
 * meridian (a ring jumps from +180 to -180 and back), Antarctica's ring goes round the pole
 * without ever reaching it, and outer rings are wound clockwise (d3's convention). Read as flat
 * polygons those become wrong: a ring crossing the antimeridian becomes a band across the whole
 * world, Antarctica an open ribbon. Everything here is pure and works on plain arrays.
 */
import type { PolygonRings, Position, Ring } from '../../src/modules/geo/land-index.ts';

export type { PolygonRings, Position, Ring };

/** Below this planar area (deg²) a ring encloses nothing; the data's smallest real islet is 3e-6. */
const MIN_RING_AREA = 1e-9;
/** A polygon entirely this close to (0, 0) is the bogus "null island" of land-10m. */
const NULL_ISLAND_RADIUS = 0.1;
/** Rings hugging a pole (every point beyond this latitude) are stitching leftovers, not land. */
const POLE_ARTIFACT_LAT = 89.99;

/**
 * 1e-6° is ~0.1 m: far below the data's quantisation (~0.0036°), and it removes the float noise
 * of ±360 shifts (180.00001000000003) so the served GeoJSON stays small and comparisons exact.
 */
const round = (v: number): number => Math.round(v * 1e6) / 1e6;

/** Shoelace area in deg², positive when the ring is counter-clockwise (x east, y north). */
export function signedArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0, n = ring.length - 1; i < n; i++) {
    sum += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  }
  return sum / 2;
}

/** Number of segments whose longitude jumps by more than half the world (a stitched crossing). */
export function countJumps(ring: Ring): number {
  let jumps = 0;
  for (let i = 1; i < ring.length; i++) if (Math.abs(ring[i][0] - ring[i - 1][0]) > 180) jumps++;
  return jumps;
}

/**
 * Shifts longitudes by ±360 so consecutive points never jump by more than 180°, then moves the
 * whole ring by a multiple of 360 so its centre lies within [-180, 180]. A ring crossing the
 * antimeridian thus keeps one side past ±180 (e.g. Chukotka up to 190°E) instead of wrapping.
 */
export function unwrapRing(ring: Ring): Ring {
  const out: Ring = [];
  let offset = 0;
  for (let i = 0; i < ring.length; i++) {
    if (i > 0) {
      const step = ring[i][0] - ring[i - 1][0];
      if (step > 180) offset -= 360;
      else if (step < -180) offset += 360;
    }
    out.push([ring[i][0] + offset, ring[i][1]]);
  }
  return shiftRing(out, -360 * Math.round(centreLon(out) / 360));
}

function centreLon(ring: Ring): number {
  let min = Infinity;
  let max = -Infinity;
  for (const [x] of ring) {
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return (min + max) / 2;
}

function shiftRing(ring: Ring, dx: number): Ring {
  return dx === 0 ? ring : ring.map(([x, y]): Position => [x + dx, y]);
}

/**
 * A ring with an odd number of jumps circles a pole (Antarctica). Planar, it is an open ribbon
 * from -180 to +180; we restart it at its crossing and close it along the map's edge:
 * (±180, crossing lat) → (±180, pole) → … → (∓180, pole) → (∓180, crossing lat), so the
 * polygon covers the pole region. Only the single-crossing case exists in world-atlas.
 */
export function closeAroundPole(ring: Ring): Ring {
  if (countJumps(ring) !== 1) throw new Error('land-repair: polar ring with several crossings');
  const open = ring.slice(0, -1); // drop the repeated first point
  const n = open.length;
  const jumpAt = open.findIndex((p, i) => Math.abs(open[(i + 1) % n][0] - p[0]) > 180);
  const a = open[jumpAt];
  const b = open[(jumpAt + 1) % n];
  // The jump a→b crosses the meridian `edge` (+180 when heading east, -180 when heading west).
  const edge = a[0] > 0 ? 180 : -180;
  const crossLat = crossingLat(a, b, edge);
  const meanLat = open.reduce((s, p) => s + p[1], 0) / n;
  const pole = meanLat < 0 ? -90 : 90;

  // Walk from b round to a: this path never jumps, it runs from -edge to +edge.
  const path: Ring = [];
  for (let k = 1; k <= n; k++) path.push(open[(jumpAt + k) % n]);
  const start: Position = [-edge, crossLat];
  // Along the pole in 90° steps, so no segment spans more than 180° (renderers and tests read
  // such a jump as a stitching error).
  const alongPole: Ring = [180, 90, 0, -90, -180].map((x): Position => [(x * edge) / 180, pole]);
  return [start, ...path, [edge, crossLat], ...alongPole, start];
}

/** Latitude where the jumping segment a→b meets the meridian `edge` (±180) on a's side. */
function crossingLat(a: Position, b: Position, edge: number): number {
  const bx = b[0] + 2 * edge; // b seen from a's side of the antimeridian
  if (bx === a[0]) return a[1];
  return a[1] + ((edge - a[0]) / (bx - a[0])) * (b[1] - a[1]);
}

function dedupe(ring: Ring): Ring {
  const out: Ring = [];
  for (const p of ring) {
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  return out;
}

/** Returns the repaired ring, or null when it encloses nothing (degenerate or pole artifact). */
function repairRing(raw: Ring): Ring | null {
  const jumps = countJumps(raw);
  if (jumps % 2 === 1 && raw.every(([, y]) => Math.abs(y) >= POLE_ARTIFACT_LAT)) return null;
  const planar = jumps === 0 ? raw : jumps % 2 === 1 ? closeAroundPole(raw) : unwrapRing(raw);
  const ring = dedupe(planar.map(([x, y]): Position => [round(x), round(y)]));
  // A closed ring needs 3 distinct corners plus the closing point.
  if (ring.length < 4 || Math.abs(signedArea(ring)) < MIN_RING_AREA) return null;
  return ring;
}

/** Outer rings counter-clockwise, holes clockwise (RFC 7946), whatever the source said. */
export function wind(ring: Ring, counterClockwise: boolean): Ring {
  return signedArea(ring) > 0 === counterClockwise ? ring : ring.slice().reverse();
}

function isNullIsland(ring: Ring): boolean {
  return ring.every(([x, y]) => Math.abs(x) < NULL_ISLAND_RADIUS && Math.abs(y) < NULL_ISLAND_RADIUS);
}

/**
 * Repairs a MultiPolygon's coordinates: unwraps antimeridian crossings, closes Antarctica over
 * the pole, drops degenerate rings and the null island, normalises winding. Holes are moved by
 * ±360 next to their outer ring if their own unwrapping put them elsewhere.
 */
export function repairPolygons(polygons: readonly PolygonRings[]): PolygonRings[] {
  const repaired: PolygonRings[] = [];
  for (const rings of polygons) {
    const outer = repairRing(rings[0]);
    if (!outer || isNullIsland(outer)) continue;
    const holes: Ring[] = [];
    // Once per polygon: OSM's Eurasia has 72 000 holes around 45 000 outer points.
    const outerCentre = centreLon(outer);
    for (const raw of rings.slice(1)) {
      const hole = repairRing(raw);
      if (!hole) continue;
      const dx = 360 * Math.round((outerCentre - centreLon(hole)) / 360);
      holes.push(wind(shiftRing(hole, dx), false));
    }
    repaired.push([wind(outer, true), ...holes]);
  }
  return repaired;
}

/**
 * Splits lines where consecutive points jump by more than 180° of longitude, ending one piece on
 * the antimeridian and starting the next on the other side at the interpolated latitude, so a
 * renderer never draws a line across the whole world.
 */
export function splitLinesAtAntimeridian(lines: readonly Ring[]): Ring[] {
  const out: Ring[] = [];
  for (const line of lines) {
    let piece: Ring = [];
    line.forEach((p, i) => {
      const prev = line[i - 1];
      if (prev && Math.abs(p[0] - prev[0]) > 180) {
        const edge = prev[0] > 0 ? 180 : -180;
        const lat = crossingLat(prev, p, edge);
        piece.push([edge, round(lat)]);
        if (piece.length > 1) out.push(piece);
        piece = [[-edge, round(lat)]];
      }
      piece.push([round(p[0]), round(p[1])]);
    });
    if (piece.length > 1) out.push(piece);
  }
  return out;
}
