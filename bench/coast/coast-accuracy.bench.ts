/**
 * Coast precision: how many of the coastal places (server/test/geo/coastal-places.ts)
 * each land check decides right — seafront on land, 1 km and 5 km offshore at sea — plus the
 * cost of each check: build time, process RSS and µs per uncached point. "before" is the former
 * check (Natural Earth 10m, 5 km coast tolerance), indexed here from world-atlas; "after" the
 * prebuilt land the server opens (server/geodata/land).
 * Run: `npx node bench/coast/coast-accuracy.bench.ts` (each check is built in its own child
 * process so the RSS figures don't mix; writes bench/results/coast-accuracy.json). It needs the
 * geo data packages (world-atlas, for "before"): `npm ci --prefix server/geodata` first.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COAST_TOLERANCE_KM, createLandChecker } from '../../server/src/modules/geo/land-check.ts';
import { getLandPolygons } from '../../server/geodata/lib/land-data.ts';
import { readLandFile } from '../../server/src/modules/geo/land-file.ts';
import { buildLandIndex } from '../../server/src/modules/geo/land-index.ts';
import { COASTAL_PLACES } from '../../server/test/geo/coastal-places.ts';

const here = fileURLToPath(import.meta.url);
const RESULTS = join(dirname(here), '..', 'results', 'coast-accuracy.json');

/** Seafronts that the 1 km OSM data alone misses (the GSHHG windows and landmarks take them in). */
const KNOWN_MISSES: [string, number, number][] = [
  ['Ajaccio, citadel (a 300 m promontory the generalisation cuts)', 41.9181, 8.7418],
  ['Ajaccio, Place Foch', 41.9196, 8.7392],
  ['Malé, Maldives (island dropped; an OSM coast 2 km away keeps Natural Earth out)', 4.1755, 73.5093],
];

type LandData = 'precise' | '10m';
const CHECKS: Record<string, { data: LandData; coastToleranceKm: number }> = {
  before: { data: '10m', coastToleranceKm: 5 },
  'before, 0.3 km': { data: '10m', coastToleranceKm: COAST_TOLERANCE_KM },
  after: { data: 'precise', coastToleranceKm: COAST_TOLERANCE_KM },
};

function mulberry(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs in a child: builds one check, measures it, prints one JSON line. */
function measure(name: string): void {
  const start = performance.now();
  const { data, coastToleranceKm } = CHECKS[name];
  const index =
    data === 'precise' ? readLandFile() : buildLandIndex(getLandPolygons('10m').map((rings) => ({ rings })));
  const check = createLandChecker(index, { coastToleranceKm, cacheSize: 0 });
  const buildMs = performance.now() - start;
  globalThis.gc?.();
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  const count = (key: 'land' | 'offshore1km' | 'offshore5km', want: boolean) =>
    COASTAL_PLACES.filter((p) => check.isOnLand(...p[key]) === want).length;
  // Per point: uniform on the sphere, and near coasts (around each place) where edges are dense.
  const next = mulberry(1);
  const points: [number, number][] = [];
  for (let i = 0; i < 50_000; i++) points.push([(Math.asin(next() * 2 - 1) * 180) / Math.PI, next() * 360 - 180]);
  const coastal: [number, number][] = [];
  for (let i = 0; i < 50_000; i++) {
    const [lat, lon] = COASTAL_PLACES[i % COASTAL_PLACES.length].land;
    coastal.push([lat + (next() - 0.5) * 0.1, lon + (next() - 0.5) * 0.1]);
  }
  const perPoint = (set: [number, number][]) => {
    const t0 = performance.now();
    for (const [lat, lon] of set) check.isOnLand(lat, lon);
    return ((performance.now() - t0) * 1000) / set.length;
  };
  const row = {
    check: name,
    data: CHECKS[name].data,
    toleranceKm: CHECKS[name].coastToleranceKm,
    seafrontOnLand: `${count('land', true)}/${COASTAL_PLACES.length}`,
    offshore1kmAtSea: `${count('offshore1km', false)}/${COASTAL_PLACES.length}`,
    offshore5kmAtSea: `${count('offshore5km', false)}/${COASTAL_PLACES.length}`,
    knownMissesOnLand: `${KNOWN_MISSES.filter(([, lat, lon]) => check.isOnLand(lat, lon)).length}/${KNOWN_MISSES.length}`,
    buildMs: Math.round(buildMs),
    rssMb: Math.round(rssMb),
    usPerPointWorld: Number(perPoint(points).toFixed(2)),
    usPerPointCoastal: Number(perPoint(coastal).toFixed(2)),
  };
  console.log(JSON.stringify(row));
}

const only = process.argv[2];
if (only) {
  measure(only);
} else {
  const rows = Object.keys(CHECKS).map((name) => {
    const child = spawnSync(process.execPath, ['--expose-gc', here, name], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    return JSON.parse(child.stdout.trim().split('\n').pop() as string);
  });
  console.table(rows);
  mkdirSync(dirname(RESULTS), { recursive: true });
  writeFileSync(
    RESULTS,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, places: COASTAL_PLACES.length, results: rows }, null, 2)}\n`,
  );
  console.log(`written ${RESULTS}`);
}
