/**
 * The two questions asked of the land index (land-index.ts), on its arrays and chunk tree: is a
 * point inside a polygon (ray casting over the chunks met on the way), and does a coast edge
 * come within a distance of it. Coordinates in the index's units (micro-degrees).
 */
import type Flatbush from 'flatbush';

export interface LandView {
  xs: Int32Array;
  ys: Int32Array;
  chunkFrom: Uint32Array;
  chunkEdges: Uint8Array;
  chunkPolygon: Uint32Array;
  chunkCoast: Uint8Array;
  polygonBoxes: Int32Array;
  /** The flatbush over the chunks' boxes. */
  chunks: Flatbush;
}

/** Kilometres per unit along each axis around the point, and the squared distance sought (km²). */
export interface Nearness {
  kx: number;
  ky: number;
  maxSq: number;
}

/**
 * Even-odd count of polygon p's edges met by a ray to the nearest side of its box.
 * Half-open along the ray's cross axis ((y1 > y) !== (y2 > y)) so a vertex on the ray counts
 * once, and inclusive (>= 0) along it: a point on an edge is read as lying a hair behind the
 * ray's start, i.e. inside the polygon whose box side it sits on. That matters on the
 * antimeridian, where some land is cut in two along x = ±180 (Chukotka, Fiji, Antarctica's
 * closure): lon ±180 exactly is then inside one of the two halves.
 */
export function insidePolygon(land: LandView, p: number, x: number, y: number): boolean {
  const { xs, ys, chunkFrom, chunkEdges, chunkPolygon, polygonBoxes, chunks } = land;
  const minX = polygonBoxes[p * 4],
    minY = polygonBoxes[p * 4 + 1];
  const maxX = polygonBoxes[p * 4 + 2],
    maxY = polygonBoxes[p * 4 + 3];
  const east = maxX - x,
    west = x - minX,
    north = maxY - y,
    south = y - minY;
  const shortest = Math.min(east, west, north, south);
  let inside = false;

  if (shortest === east || shortest === west) {
    const dir = shortest === east ? 1 : -1;
    chunks.search(dir > 0 ? x : minX, y, dir > 0 ? maxX : x, y, (c) => {
      if (chunkPolygon[c] !== p) return false;
      for (let i = chunkFrom[c], end = i + chunkEdges[c]; i < end; i++) {
        const x1 = xs[i],
          y1 = ys[i],
          x2 = xs[i + 1],
          y2 = ys[i + 1];
        if (y1 > y !== y2 > y && (x1 + ((y - y1) * (x2 - x1)) / (y2 - y1) - x) * dir >= 0) inside = !inside;
      }
      return false; // counted here; no result array needed
    });
  } else {
    const dir = shortest === north ? 1 : -1;
    chunks.search(x, dir > 0 ? y : minY, x, dir > 0 ? maxY : y, (c) => {
      if (chunkPolygon[c] !== p) return false;
      for (let i = chunkFrom[c], end = i + chunkEdges[c]; i < end; i++) {
        const x1 = xs[i],
          y1 = ys[i],
          x2 = xs[i + 1],
          y2 = ys[i + 1];
        if (x1 > x !== x2 > x && (y1 + ((x - x1) * (y2 - y1)) / (x2 - x1) - y) * dir >= 0) inside = !inside;
      }
      return false;
    });
  }
  return inside;
}

/** Whether a coast edge (not a pole closure or a window's cut) lies within reach, in the box ±dx, ±dy around (x, y). */
export function coastWithin(
  land: LandView,
  x: number,
  y: number,
  dx: number,
  dy: number,
  { kx, ky, maxSq }: Nearness,
): boolean {
  const { xs, ys, chunkFrom, chunkEdges, chunkCoast, chunks } = land;
  return (
    chunkFrom.length > 0 &&
    x + dx >= chunks.minX &&
    x - dx <= chunks.maxX &&
    chunks.collides(x - dx, y - dy, x + dx, y + dy, (c) => {
      if (chunkCoast[c] === 0) return false;
      for (let i = chunkFrom[c], end = i + chunkEdges[c]; i < end; i++) {
        const ax = (xs[i] - x) * kx,
          ay = (ys[i] - y) * ky;
        const bx = (xs[i + 1] - x) * kx,
          by = (ys[i + 1] - y) * ky;
        if (squaredDistanceToSegment(ax, ay, bx, by) <= maxSq) return true;
      }
      return false;
    })
  );
}

/** Squared distance from the origin to segment a–b. */
function squaredDistanceToSegment(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax,
    dy = by - ay;
  const lengthSq = dx * dx + dy * dy;
  const t = lengthSq === 0 ? 0 : Math.min(1, Math.max(0, -(ax * dx + ay * dy) / lengthSq));
  const cx = ax + t * dx,
    cy = ay + t * dy;
  return cx * cx + cy * cy;
}
