/**
 * Spatial index over repaired land polygons, answering "inside land?" and "within d km of a
 * coastline?" in plain lon/lat.
 *
 * Two flatbush indexes: one over polygon bounding boxes (which polygons may contain the point)
 * and one over every ring edge. Point-in-polygon is ray casting, but the ray only runs from the
 * point to the nearest side of the candidate polygon's bbox and only edges met on the way are
 * read — so testing a point in Eurasia (81 000 vertices on 10m) touches a handful of edges.
 *
 * Antimeridian: rings crossing it are unwrapped and may extend past ±180 (Chukotka reaches
 * 190°E, Wrangel Island -181°). Rather than splitting them, a query at longitude λ is also run at
 * λ + 360 and λ − 360 whenever those fall inside the index's extent (rarely: only within ~11° of
 * the antimeridian). Polygons don't overlap, so "inside at any of the three" is the answer.
 */
import Flatbush from 'flatbush';
import { MAP } from '@moodmap/core';
import type { PolygonRings } from './land-repair.ts';

/** Kilometres per degree of latitude (and of longitude at the equator). */
export const KM_PER_DEGREE = ((MAP.earthRadiusM / 1000) * Math.PI) / 180;

/** A ring's area in km² (planar on degrees, scaled by the cosine of its latitude: ample for a size threshold). */
export function ringKm2(ring: readonly number[][]): number {
  let twice = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) twice += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  return Math.abs(twice / 2) * KM_PER_DEGREE * KM_PER_DEGREE * Math.cos((ring[0]![1]! * Math.PI) / 180);
}
const SHIFTS = [0, 360, -360] as const;

export interface LandIndex {
  /** True when (lat, lon) lies inside a land polygon (holes excluded). */
  contains(lat: number, lon: number): boolean;
  /** True when a real coastline edge lies within `km` (pole-closure edges don't count). */
  isNearCoast(lat: number, lon: number, km: number): boolean;
  readonly stats: { polygons: number; edges: number };
}

export function buildLandIndex(polygons: readonly PolygonRings[]): LandIndex {
  // Flat storage: every ring's points (closed, last = first) back to back; edge e runs from
  // point edgeFrom[e] to edgeFrom[e] + 1 and belongs to polygon edgePoly[e].
  let pointCount = 0;
  let edgeCount = 0;
  for (const rings of polygons) {
    for (const ring of rings) {
      pointCount += ring.length;
      edgeCount += ring.length - 1;
    }
  }
  const xs = new Float64Array(pointCount);
  const ys = new Float64Array(pointCount);
  const edgeFrom = new Uint32Array(edgeCount);
  const edgePoly = new Uint32Array(edgeCount);
  const polyBoxes = new Float64Array(polygons.length * 4);
  const edges = new Flatbush(edgeCount);
  const polys = new Flatbush(polygons.length);

  let point = 0;
  let edge = 0;
  polygons.forEach((rings, p) => {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const ring of rings) {
      ring.forEach(([x, y], i) => {
        xs[point] = x;
        ys[point] = y;
        if (i > 0) {
          edgeFrom[edge] = point - 1;
          edgePoly[edge] = p;
          const px = xs[point - 1], py = ys[point - 1];
          edges.add(Math.min(px, x), Math.min(py, y), Math.max(px, x), Math.max(py, y));
          edge++;
        }
        point++;
        if (x < minX) minX = x;
        if (y < minY) minY = y;
        if (x > maxX) maxX = x;
        if (y > maxY) maxY = y;
      });
    }
    polyBoxes.set([minX, minY, maxX, maxY], p * 4);
    polys.add(minX, minY, maxX, maxY);
  });
  edges.finish();
  polys.finish();

  /**
   * Even-odd count of this polygon's edges met by a ray to the nearest side of its bbox.
   * Half-open along the ray's cross axis ((y1 > y) !== (y2 > y)) so a vertex on the ray counts
   * once, and inclusive (>= 0) along it: a point on an edge is read as lying a hair behind the
   * ray's start, i.e. inside the polygon whose bbox side it sits on. That matters on the
   * antimeridian, where world-atlas leaves some land cut in two along x = ±180 (Chukotka on 10m,
   * Fiji, Antarctica's closure): lon ±180 exactly is then inside one of the two halves.
   */
  function insidePolygon(p: number, x: number, y: number): boolean {
    const minX = polyBoxes[p * 4], minY = polyBoxes[p * 4 + 1];
    const maxX = polyBoxes[p * 4 + 2], maxY = polyBoxes[p * 4 + 3];
    const east = maxX - x, west = x - minX, north = maxY - y, south = y - minY;
    const shortest = Math.min(east, west, north, south);
    let inside = false;

    if (shortest === east || shortest === west) {
      const dir = shortest === east ? 1 : -1;
      edges.search(dir > 0 ? x : minX, y, dir > 0 ? maxX : x, y, (e) => {
        if (edgePoly[e] !== p) return false;
        const i = edgeFrom[e];
        const x1 = xs[i], y1 = ys[i], x2 = xs[i + 1], y2 = ys[i + 1];
        if (y1 > y !== y2 > y && (x1 + ((y - y1) * (x2 - x1)) / (y2 - y1) - x) * dir >= 0) inside = !inside;
        return false; // counted here; no result array needed
      });
    } else {
      const dir = shortest === north ? 1 : -1;
      edges.search(x, dir > 0 ? y : minY, x, dir > 0 ? maxY : y, (e) => {
        if (edgePoly[e] !== p) return false;
        const i = edgeFrom[e];
        const x1 = xs[i], y1 = ys[i], x2 = xs[i + 1], y2 = ys[i + 1];
        if (x1 > x !== x2 > x && (y1 + ((x - x1) * (y2 - y1)) / (x2 - x1) - y) * dir >= 0) inside = !inside;
        return false;
      });
    }
    return inside;
  }

  return {
    stats: { polygons: polygons.length, edges: edgeCount },

    contains(lat, lon) {
      // The pole itself sits on Antarctica's closing edge; nudge it inside like any pole-side point.
      const y = Math.min(Math.max(lat, -90 + 1e-9), 90 - 1e-9);
      return SHIFTS.some((shift) => {
        const x = lon + shift;
        if (x < polys.minX || x > polys.maxX) return false;
        return polys.collides(x, y, x, y, (p) => insidePolygon(p, x, y));
      });
    },

    isNearCoast(lat, lon, km) {
      // Local equirectangular projection around the point: good to well under 1% at 5 km.
      const cosLat = Math.max(Math.cos((lat * Math.PI) / 180), 1e-6);
      const kx = cosLat * KM_PER_DEGREE;
      const dLat = km / KM_PER_DEGREE;
      const dLon = Math.min(km / kx, 180);
      const maxSq = km * km;
      return SHIFTS.some((shift) => {
        const x = lon + shift;
        if (x + dLon < edges.minX || x - dLon > edges.maxX) return false;
        return edges.collides(x - dLon, lat - dLat, x + dLon, lat + dLat, (e) => {
          const i = edgeFrom[e];
          // Edges touching a pole are the artificial closure of Antarctica, not a coast.
          if (Math.abs(ys[i]) === 90 || Math.abs(ys[i + 1]) === 90) return false;
          const ax = (xs[i] - x) * kx, ay = (ys[i] - lat) * KM_PER_DEGREE;
          const bx = (xs[i + 1] - x) * kx, by = (ys[i + 1] - lat) * KM_PER_DEGREE;
          return squaredDistanceToSegment(ax, ay, bx, by) <= maxSq;
        });
      });
    },
  };
}

/** Squared distance from the origin to segment a–b. */
function squaredDistanceToSegment(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax, dy = by - ay;
  const lengthSq = dx * dx + dy * dy;
  const t = lengthSq === 0 ? 0 : Math.min(1, Math.max(0, -(ax * dx + ay * dy) / lengthSq));
  const cx = ax + t * dx, cy = ay + t * dy;
  return cx * cx + cy * cy;
}
