/**
 * Land check cost: data load (+ repair and index build for Natural Earth; the prebuilt file for
 * the precise land the server uses), and per-point cost of uncached and cached lookups. Run: `npx node bench/geo/land-check.bench.ts` (prints a table, writes
 * bench/results/land-check.json). Points are uniform on the sphere (about 29 % land) from a
 * seeded generator, so runs compare.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getLandPolygons } from '../../server/geodata/lib/land-data.ts';
import { readLandFile } from '../../server/src/modules/geo/land-file.ts';
import { buildLandIndex, type LandIndex } from '../../server/src/modules/geo/land-index.ts';
import { createLandChecker } from '../../server/src/modules/geo/land-check.ts';

const POINTS = 100_000;
const CACHED_KEYS = 10_000;
const RESULTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'land-check.json');

/** mulberry32: tiny seeded PRNG. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform on the sphere within a lat/lon box (the whole world by default). */
function randomPoints(count: number, seed: number, [south, west, north, east] = [-90, -180, 90, 180]): Float64Array {
  const next = random(seed);
  const sinS = Math.sin((south * Math.PI) / 180);
  const sinN = Math.sin((north * Math.PI) / 180);
  const points = new Float64Array(count * 2);
  for (let i = 0; i < count; i++) {
    points[i * 2] = (Math.asin(sinS + next() * (sinN - sinS)) * 180) / Math.PI; // equal-area latitude
    points[i * 2 + 1] = west + next() * (east - west);
  }
  return points;
}

/** Indonesia and the Philippines: thousands of small islands, the coast test's worst case. */
const ARCHIPELAGO: [number, number, number, number] = [-11, 95, 20, 135];

function time<T>(run: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = run();
  return { ms: performance.now() - start, value };
}

/** µs per call of check over the points, and how many answered true. */
function perPoint(points: Float64Array, check: (lat: number, lon: number) => boolean) {
  let land = 0;
  const { ms } = time(() => {
    for (let i = 0; i < points.length; i += 2) if (check(points[i], points[i + 1])) land++;
  });
  const count = points.length / 2;
  return { usPerPoint: (ms * 1000) / count, landShare: land / count };
}

const round = (v: number, digits = 2): number => Number(v.toFixed(digits));

/** `load` gives the polygons to index, or the index itself when it comes prebuilt. */
function benchLand(name: string, load: () => LandIndex | Parameters<typeof buildLandIndex>[0]) {
  const loaded = time(load);
  const build = time(() => ('contains' in loaded.value ? loaded.value : buildLandIndex(loaded.value)));
  const index = build.value;
  const points = randomPoints(POINTS, 1);

  const inside = perPoint(points, (lat, lon) => index.contains(lat, lon));
  const uncached = perPoint(points, createLandChecker(index, { cacheSize: 0 }).isOnLand);
  const archipelago = perPoint(
    randomPoints(POINTS, 3, ARCHIPELAGO),
    createLandChecker(index, { cacheSize: 0 }).isOnLand,
  );

  // Cached: a working set that fits the cache, asked over and over.
  const cachedChecker = createLandChecker(index, { cacheSize: CACHED_KEYS });
  const hot = randomPoints(CACHED_KEYS, 2);
  perPoint(hot, cachedChecker.isOnLand);
  const repeated = new Float64Array(POINTS * 2);
  for (let i = 0; i < repeated.length; i++) repeated[i] = hot[i % hot.length];
  const cached = perPoint(repeated, cachedChecker.isOnLand);

  return {
    land: name,
    polygons: index.stats.polygons,
    edges: index.stats.edges,
    loadMs: round(loaded.ms, 0),
    indexBuildMs: round(build.ms, 0),
    insideOnlyUsPerPoint: round(inside.usPerPoint),
    uncachedUsPerPoint: round(uncached.usPerPoint),
    archipelagoUsPerPoint: round(archipelago.usPerPoint),
    cachedUsPerPoint: round(cached.usPerPoint, 3),
    landShare: round(uncached.landShare, 3),
    heapUsedMb: round(process.memoryUsage().heapUsed / 2 ** 20, 0),
  };
}

const rows = [
  benchLand('precise (prebuilt)', () => readLandFile()),
  benchLand('Natural Earth 10m', () => getLandPolygons('10m').map((rings) => ({ rings }))),
  benchLand('Natural Earth 50m', () => getLandPolygons('50m').map((rings) => ({ rings }))),
];
console.table(rows);
mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(
  RESULTS,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, points: POINTS, results: rows }, null, 2)}\n`,
);
console.log(`written ${RESULTS}`);
