/**
 * Spatial index over land polygons, answering "inside land?" and "within d km of land?" in plain
 * lon/lat. Built once by the land's build (server/geodata/lib/land-build.ts; land-file.ts writes
 * it to server/geodata/land), opened by the server as views on the file's arrays.
 *
 * Points are integers in micro-degrees (1e-6°, ~0.1 m): exact for every source, and half the
 * size of doubles. Each ring's edges are cut into chunks of up to CHUNK_EDGES consecutive edges,
 * and one flatbush holds the chunks' boxes: indexing chunks rather than single edges keeps the
 * index a few megabytes for a million edges, at the price of testing a chunk's few edges.
 * A second flatbush holds the polygons' boxes.
 *
 * "Inside" is ray casting: the ray only runs from the point to the nearest side of the candidate
 * polygon's box, and only the chunks met on the way are read. A polygon may hold several outer
 * rings (a window of finer coast data, islets grouped by cell: server/geodata/lib/land-precise.ts):
 * the count is even-odd over all its rings.
 *
 * "Near" measures the distance to coast edges (not to the pole closure of Antarctica, nor to the
 * cut edges of a window) and to landmarks: points known to be land that the polygons miss.
 *
 * Antimeridian: rings crossing it are unwrapped and may extend past ±180 (Chukotka reaches
 * 190°E, Wrangel Island -181°). Rather than splitting them, a query at longitude λ is also run at
 * λ + 360 and λ − 360 whenever those fall inside the index's extent (rarely: only within ~11° of
 * the antimeridian). "Inside at any of the three, in any polygon" is the answer: polygons of
 * different sources may overlap (a window over the land it refines), and land is their union.
 */
import Flatbush from 'flatbush';
import { MAP } from '@moodmap/core';
import { coastWithin, insidePolygon, type LandView, type Nearness } from './land-queries.ts';

/** [longitude, latitude] in degrees. */
export type Position = [number, number];
export type Ring = Position[];
/** rings[0] is the outer ring (counter-clockwise), the others are holes (clockwise). */
export type PolygonRings = Ring[];

/** Kilometres per degree of latitude (and of longitude at the equator). */
export const KM_PER_DEGREE = ((MAP.earthRadiusM / 1000) * Math.PI) / 180;
/** Coordinates are stored in micro-degrees. */
export const UNITS_PER_DEGREE = 1e6;
const KM_PER_UNIT = KM_PER_DEGREE / UNITS_PER_DEGREE;
/** Edges per chunk: a query tests at most this many edges per chunk box it meets. */
const CHUNK_EDGES = 16;
const POLE = 90 * UNITS_PER_DEGREE;
const SHIFTS = [0, 360 * UNITS_PER_DEGREE, -360 * UNITS_PER_DEGREE] as const;

/** A ring's area in km² (planar on degrees, scaled by the cosine of its latitude: ample for a size threshold). */
export function ringKm2(ring: readonly number[][]): number {
  let twice = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    twice += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  return Math.abs(twice / 2) * KM_PER_DEGREE * KM_PER_DEGREE * Math.cos((ring[0]![1]! * Math.PI) / 180);
}

export type Box = [west: number, south: number, east: number, north: number];

export interface LandPolygon {
  /** Closed rings in degrees; even-odd over all of them decides what is inside. */
  rings: PolygonRings;
  /** A window cut out of larger data: its rings' edges along this box's sides are cuts, not coasts. */
  window?: Box;
}

/** The index as arrays: what the land file holds. */
export interface LandIndexArrays {
  xs: Int32Array;
  ys: Int32Array;
  /** Chunk c: edges from point chunkFrom[c] to chunkFrom[c] + chunkEdges[c], of polygon chunkPolygon[c]. */
  chunkFrom: Uint32Array;
  chunkEdges: Uint8Array;
  chunkPolygon: Uint32Array;
  /** 1 when the chunk's edges are a coast, 0 for the pole closure or a window's cut. */
  chunkCoast: Uint8Array;
  /** Serialised flatbush over the chunks' boxes. */
  chunkTree: Uint8Array;
  /** west, south, east, north of each polygon. */
  polygonBoxes: Int32Array;
  /** Serialised flatbush over the polygons' boxes. */
  polygonTree: Uint8Array;
  landmarkXs: Int32Array;
  landmarkYs: Int32Array;
  /** Serialised flatbush over the landmarks (empty when there are none). */
  landmarkTree: Uint8Array;
}

export interface LandIndex {
  /** True when (lat, lon) lies inside the land polygons (even-odd: holes and lakes excluded). */
  contains(lat: number, lon: number): boolean;
  /** True when a coast edge or a landmark lies within `km`. */
  isNearLand(lat: number, lon: number, km: number): boolean;
  readonly stats: { polygons: number; edges: number; landmarks: number };
}

const toUnits = (degrees: number) => Math.round(degrees * UNITS_PER_DEGREE);

/** Whether edge (x1, y1)–(x2, y2) is no coast: on the pole, or along a side of the window box (in units). */
function isCut(window: readonly number[] | undefined, x1: number, y1: number, x2: number, y2: number): boolean {
  if (Math.abs(y1) === POLE || Math.abs(y2) === POLE) return true; // Antarctica closed over the pole
  if (!window) return false;
  const [w, s, e, n] = window;
  return (x1 === x2 && (x1 === w || x1 === e)) || (y1 === y2 && (y1 === s || y1 === n));
}

function serialise(tree: Flatbush): Uint8Array {
  return new Uint8Array(tree.data);
}

/** The index arrays of these polygons and landmarks ([lat, lon] in degrees). */
export function buildLandIndexArrays(
  polygons: readonly LandPolygon[],
  landmarks: ReadonlyArray<readonly [number, number]> = [],
): LandIndexArrays {
  return { ...buildPolygonArrays(polygons), ...buildLandmarkArrays(landmarks) };
}

type PolygonArrays = Omit<LandIndexArrays, 'landmarkXs' | 'landmarkYs' | 'landmarkTree'>;
type LandmarkArrays = Pick<LandIndexArrays, 'landmarkXs' | 'landmarkYs' | 'landmarkTree'>;

/** The landmarks' part of the arrays: points known to be land ([lat, lon] in degrees). */
export function buildLandmarkArrays(landmarks: ReadonlyArray<readonly [number, number]>): LandmarkArrays {
  const landmarkXs = Int32Array.from(landmarks, ([, lon]) => toUnits(lon));
  const landmarkYs = Int32Array.from(landmarks, ([lat]) => toUnits(lat));
  let landmarkTree: Uint8Array = new Uint8Array(0);
  if (landmarks.length > 0) {
    const tree = new Flatbush(landmarks.length, 16, Int32Array);
    for (let i = 0; i < landmarks.length; i++) tree.add(landmarkXs[i], landmarkYs[i]);
    tree.finish();
    landmarkTree = serialise(tree);
  }
  return { landmarkXs, landmarkYs, landmarkTree };
}

/** The polygons' part of the arrays. */
export function buildPolygonArrays(polygons: readonly LandPolygon[]): PolygonArrays {
  let pointCount = 0;
  for (const { rings } of polygons) for (const ring of rings) pointCount += ring.length;
  const xs = new Int32Array(pointCount);
  const ys = new Int32Array(pointCount);
  const chunkFrom: number[] = [];
  const chunkEdges: number[] = [];
  const chunkPolygon: number[] = [];
  const chunkCoast: number[] = [];
  const polygonBoxes = new Int32Array(polygons.length * 4);

  let point = 0;
  polygons.forEach(({ rings, window: box }, p) => {
    const window = box?.map(toUnits);
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    for (const ring of rings) {
      const first = point;
      for (const [lon, lat] of ring) {
        const x = toUnits(lon),
          y = toUnits(lat);
        xs[point] = x;
        ys[point] = y;
        point++;
        if (x < minX) minX = x;
        if (y < minY) minY = y;
        if (x > maxX) maxX = x;
        if (y > maxY) maxY = y;
      }
      // Runs of up to CHUNK_EDGES edges of the same kind (coast or cut).
      for (let from = first; from < point - 1; ) {
        const coast = !isCut(window, xs[from], ys[from], xs[from + 1], ys[from + 1]);
        let edges = 1;
        while (
          edges < CHUNK_EDGES &&
          from + edges < point - 1 &&
          coast === !isCut(window, xs[from + edges], ys[from + edges], xs[from + edges + 1], ys[from + edges + 1])
        )
          edges++;
        chunkFrom.push(from);
        chunkEdges.push(edges);
        chunkPolygon.push(p);
        chunkCoast.push(coast ? 1 : 0);
        from += edges;
      }
    }
    polygonBoxes.set([minX, minY, maxX, maxY], p * 4);
  });

  const chunkTree = new Flatbush(Math.max(1, chunkFrom.length), 16, Int32Array);
  chunkFrom.forEach((from, c) => {
    let minX = xs[from],
      minY = ys[from],
      maxX = minX,
      maxY = minY;
    for (let i = from + 1; i <= from + chunkEdges[c]; i++) {
      if (xs[i] < minX) minX = xs[i];
      if (ys[i] < minY) minY = ys[i];
      if (xs[i] > maxX) maxX = xs[i];
      if (ys[i] > maxY) maxY = ys[i];
    }
    chunkTree.add(minX, minY, maxX, maxY);
  });
  if (chunkFrom.length === 0) chunkTree.add(0, 0, 0, 0);
  chunkTree.finish();

  const polygonTree = new Flatbush(Math.max(1, polygons.length), 16, Int32Array);
  for (let p = 0; p < polygons.length; p++)
    polygonTree.add(polygonBoxes[p * 4], polygonBoxes[p * 4 + 1], polygonBoxes[p * 4 + 2], polygonBoxes[p * 4 + 3]);
  if (polygons.length === 0) polygonTree.add(0, 0, 0, 0);
  polygonTree.finish();

  return {
    xs,
    ys,
    chunkFrom: Uint32Array.from(chunkFrom),
    chunkEdges: Uint8Array.from(chunkEdges),
    chunkPolygon: Uint32Array.from(chunkPolygon),
    chunkCoast: Uint8Array.from(chunkCoast),
    chunkTree: serialise(chunkTree),
    polygonBoxes,
    polygonTree: serialise(polygonTree),
  };
}

/** A flatbush on a serialised tree's bytes, without copying them. */
function treeOf(bytes: Uint8Array): Flatbush {
  if (!(bytes.buffer instanceof ArrayBuffer)) throw new Error('land index: a tree must sit on an ArrayBuffer');
  return Flatbush.from(bytes.buffer, bytes.byteOffset);
}

/** The index on its arrays (views on the land file, or fresh ones from buildLandIndexArrays). */
export function openLandIndex(arrays: LandIndexArrays): LandIndex {
  const { chunkEdges, polygonBoxes, landmarkXs, landmarkYs } = arrays;
  const land: LandView = { ...arrays, chunks: treeOf(arrays.chunkTree) };
  const polygons = treeOf(arrays.polygonTree);
  const landmarks = arrays.landmarkTree.length > 0 ? treeOf(arrays.landmarkTree) : undefined;
  const polygonCount = polygonBoxes.length / 4;
  let edgeCount = 0;
  for (let c = 0; c < chunkEdges.length; c++) edgeCount += chunkEdges[c];

  return {
    stats: { polygons: polygonCount, edges: edgeCount, landmarks: landmarkXs.length },

    contains(lat, lon) {
      if (polygonCount === 0) return false;
      // The pole itself sits on Antarctica's closing edge; nudge it inside like any pole-side point.
      const y = Math.min(Math.max(lat, -90 + 1e-9), 90 - 1e-9) * UNITS_PER_DEGREE;
      return SHIFTS.some((shift) => {
        const x = lon * UNITS_PER_DEGREE + shift;
        if (x < polygons.minX || x > polygons.maxX) return false;
        return polygons.collides(x, y, x, y, (p) => insidePolygon(land, p, x, y));
      });
    },

    isNearLand(lat, lon, km) {
      // Local equirectangular projection around the point: good to well under 1% at 5 km.
      const cosLat = Math.max(Math.cos((lat * Math.PI) / 180), 1e-6);
      const near: Nearness = { kx: cosLat * KM_PER_UNIT, ky: KM_PER_UNIT, maxSq: km * km };
      const dy = km / KM_PER_UNIT;
      const dx = Math.min(km / near.kx, 180 * UNITS_PER_DEGREE);
      const y = lat * UNITS_PER_DEGREE;
      return SHIFTS.some((shift) => {
        const x = lon * UNITS_PER_DEGREE + shift;
        return (
          coastWithin(land, x, y, dx, dy, near) ||
          (landmarks?.collides(x - dx, y - dy, x + dx, y + dy, (m) => {
            const ax = (landmarkXs[m] - x) * near.kx,
              ay = (landmarkYs[m] - y) * near.ky;
            return ax * ax + ay * ay <= near.maxSq;
          }) ??
            false)
        );
      });
    },
  };
}

/** An index built in memory (the build script, tests' fixtures). */
export function buildLandIndex(
  polygons: readonly LandPolygon[],
  landmarks: ReadonlyArray<readonly [number, number]> = [],
): LandIndex {
  return openLandIndex(buildLandIndexArrays(polygons, landmarks));
}
