/**
 * Exact 100 m grouping of the map (docs/product.md, Map): posts closer than 100 m to each other
 * (haversine, earth radius 6 371 000 m) merge into one cluster.
 *
 * The relation is transitive (single linkage): if A is within 100 m of B and B within 100 m of
 * C, then A, B and C form one cluster even when A and C are 160 m apart. A cluster is therefore
 * a connected component of the "within 100 m" graph; its position is the average of its posts'
 * positions.
 *
 * Cost is O(n) for spread-out posts and stays near-linear for dense ones: points are hashed into
 * cells about 70 m across, so the diagonal stays under 100 m and every post in one cell belongs to
 * the same cluster without any distance test. A post then looks at the cells within 100 m of it
 * and skips every cell already in its cluster, so a crowded city costs one union per cell, not
 * one distance per pair.
 */
import { MAP } from '@moodmap/core';

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

export interface Group<T> {
  items: T[];
  latitude: number;
  longitude: number;
}

const RAD = Math.PI / 180;

/** Great-circle distance in metres (haversine). */
export function haversineMeters(a: GeoPoint, b: GeoPoint, radius: number = MAP.earthRadiusM): number {
  const dLat = (b.latitude - a.latitude) * RAD;
  const dLon = (b.longitude - a.longitude) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * RAD) * Math.cos(b.latitude * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * radius * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Cell side in metres: with a 70 m square the diagonal (99 m) stays under the 100 m radius. */
const CELL_M = 70;
/** Beyond this latitude cells would wrap the pole; those rows fall back to pairwise tests. */
const POLAR_LAT = 89;

class UnionFind {
  private readonly parent: Int32Array;
  private readonly rank: Uint8Array;
  constructor(n: number) {
    this.parent = new Int32Array(n);
    this.rank = new Uint8Array(n);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }
  find(i: number): number {
    let root = i;
    while (this.parent[root] !== root) root = this.parent[root]!;
    while (this.parent[i] !== root) {
      const next = this.parent[i]!;
      this.parent[i] = root;
      i = next;
    }
    return root;
  }
  union(a: number, b: number): void {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return;
    if (this.rank[ra]! < this.rank[rb]!) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    if (this.rank[ra] === this.rank[rb]) this.rank[ra]!++;
  }
}

/**
 * Groups points within `radiusM` of each other (transitively). Returns groups in the order of
 * their first item; a lone point is a group of one.
 */
/** The mean of some points; longitudes relative to the first, so a group across ±180° stays put. */
export function meanPoint(points: readonly GeoPoint[]): GeoPoint {
  const ref = points[0]!.longitude;
  let lat = 0;
  let lonDelta = 0;
  for (const p of points) {
    lat += p.latitude;
    let d = p.longitude - ref;
    if (d > 180) d -= 360;
    else if (d < -180) d += 360;
    lonDelta += d;
  }
  let lon = ref + lonDelta / points.length;
  if (lon > 180) lon -= 360;
  else if (lon < -180) lon += 360;
  return { latitude: lat / points.length, longitude: lon };
}

export function groupWithinRadius<T extends GeoPoint>(
  points: readonly T[],
  radiusM: number = MAP.clusterRadiusM,
): Group<T>[] {
  const n = points.length;
  if (n === 0) return [];
  const R = MAP.earthRadiusM;
  const cellM = Math.min(CELL_M, radiusM / Math.SQRT2 - 0.5);
  const rowDeg = cellM / R / RAD;
  const rows = Math.ceil(180 / rowDeg);
  const rowOf = (lat: number) => Math.min(rows - 1, Math.max(0, Math.floor((lat + 90) / rowDeg)));
  const rowEdge = (row: number) => row * rowDeg - 90;
  /** Smallest |latitude| in a row: its widest ground span, so cells never exceed cellM across. */
  const minAbsLat = (row: number) => {
    const a = rowEdge(row);
    const b = a + rowDeg;
    return a <= 0 && b >= 0 ? 0 : Math.min(Math.abs(a), Math.abs(b));
  };
  const maxAbsLat = (row: number) => Math.min(90, Math.max(Math.abs(rowEdge(row)), Math.abs(rowEdge(row) + rowDeg)));
  const polar = (row: number) => maxAbsLat(row) > POLAR_LAT;
  const colsCache = new Map<number, { width: number; cols: number }>();
  const colsOf = (row: number) => {
    let c = colsCache.get(row);
    if (!c) {
      const cols = polar(row) ? 1 : Math.max(1, Math.ceil(360 / (rowDeg / Math.cos(minAbsLat(row) * RAD))));
      c = { width: 360 / cols, cols };
      colsCache.set(row, c);
    }
    return c;
  };
  const colOf = (row: number, lon: number) => {
    const { width, cols } = colsOf(row);
    const wrapped = (((lon + 180) % 360) + 360) % 360;
    return Math.min(cols - 1, Math.floor(wrapped / width));
  };

  const cells = new Map<number, number[]>();
  const keyOf = (row: number, col: number) => row * 4_194_304 + col;
  const uf = new UnionFind(n);
  // Each occupied cell: its points; non-polar cells are one cluster from the start.
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    const row = rowOf(p.latitude);
    const key = keyOf(row, colOf(row, p.longitude));
    const list = cells.get(key);
    if (list) {
      if (!polar(row)) uf.union(list[0]!, i);
      list.push(i);
    } else {
      cells.set(key, [i]);
    }
  }

  const reachRows = Math.ceil(radiusM / cellM);
  const hav = Math.sin(radiusM / R / 2) ** 2;
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    const row = rowOf(p.latitude);
    const cosP = Math.cos(p.latitude * RAD);
    for (let r = Math.max(0, row - reachRows); r <= Math.min(rows - 1, row + reachRows); r++) {
      const { width, cols } = colsOf(r);
      // Largest longitude gap at which a point of row r can still be within the radius.
      const cosQ = Math.cos(maxAbsLat(r) * RAD);
      const bound = cosP * cosQ;
      const dLon = bound <= hav ? 180 : (2 * Math.asin(Math.min(1, Math.sqrt(hav / bound)))) / RAD;
      const span = dLon >= 180 ? cols : Math.min(cols, Math.ceil(dLon / width) + 1);
      const centre = colOf(r, p.longitude);
      // Near the poles the span can cover the whole row: then each column is visited once.
      const all = 2 * span + 1 >= cols;
      const first = all ? 0 : centre - span;
      const last = all ? cols - 1 : centre + span;
      for (let c = first; c <= last; c++) {
        const col = ((c % cols) + cols) % cols;
        const list = cells.get(keyOf(r, col));
        if (!list) continue;
        const pairwise = polar(r);
        if (!pairwise && uf.find(list[0]!) === uf.find(i)) continue;
        for (const j of list) {
          if (j === i || (pairwise && uf.find(j) === uf.find(i))) continue;
          if (haversineMeters(p, points[j]!, R) <= radiusM) {
            uf.union(i, j);
            if (!pairwise) break;
          }
        }
      }
    }
  }

  const byRoot = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const root = uf.find(i);
    const list = byRoot.get(root);
    if (list) list.push(i);
    else byRoot.set(root, [i]);
  }
  const groups: Group<T>[] = [];
  for (const members of byRoot.values()) {
    const items = members.map((i) => points[i]!);
    groups.push({ items, ...meanPoint(items) });
  }
  return groups;
}
