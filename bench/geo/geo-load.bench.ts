/**
 * What the geo engine (land check + place search) costs the server's start. Each run is a
 * process of its own that imports the geo modules, then measures around one step its CPU time
 * (process.cpuUsage) and the growth of its resident memory once garbage is collected:
 *   - prebuilt: the engine opened from server/geodata (what createContext does);
 *   - from packages: the same engine built from the npm packages and the GSHHG extract (the
 *     build scripts' path: what a start would cost without the files);
 *   - reference: the same imports, then nothing.
 * BENCH_ROUNDS (3) rounds, the three kinds alternated; median and spread of each figure, the
 * machine's load printed.
 *
 * Run: `npx node bench/geo/geo-load.bench.ts` (or `npm run bench -- geo-load`).
 * Writes bench/results/geo-load.json.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadGeoEngine, createGeoEngine } from '../../server/src/modules/geo/geo-engine.ts';
import { readGshhgExtract } from '../../server/geodata/lib/gshhg-extract.ts';
import { buildLandArrays } from '../../server/geodata/lib/land-build.ts';
import { openLandIndex } from '../../server/src/modules/geo/land-index.ts';
import { buildPreciseLand, loadBaseLand } from '../../server/geodata/lib/land-precise.ts';
import { buildPlaceIndex } from '../../server/src/modules/geo/place-build.ts';
import { getPlaces } from '../../server/geodata/lib/places-data.ts';
import { envPositiveInt } from '../support/env.ts';
import { resultsFile, round, startRun, writeResults } from '../support/results.ts';
import { formatSpread, loadLine, spread } from '../support/stats.ts';

const here = fileURLToPath(import.meta.url);
const ROUNDS = envPositiveInt('BENCH_ROUNDS', 3);
const KINDS = ['reference', 'prebuilt', 'from packages'] as const;
type Kind = (typeof KINDS)[number];

const STEPS: Record<Kind, () => unknown> = {
  reference: () => null,
  prebuilt: () => loadGeoEngine(),
  'from packages': () => {
    const extract = readGshhgExtract();
    const places = getPlaces();
    const land = buildLandArrays(
      buildPreciseLand(loadBaseLand(), extract),
      { islands: extract.islands.length, windows: extract.windows.length },
      places,
    );
    return createGeoEngine(openLandIndex(land.arrays), buildPlaceIndex(places));
  },
};

interface Run {
  cpuMs: number;
  rssGrowthMb: number;
  rssMb: number;
}

/** In the child: one step, measured; prints one JSON line. */
function measure(kind: Kind): void {
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const kept = STEPS[kind]();
  const used = process.cpuUsage(cpu);
  globalThis.gc?.();
  const rss = process.memoryUsage().rss;
  const run: Run = {
    cpuMs: (used.user + used.system) / 1000,
    rssGrowthMb: (rss - rssBefore) / 2 ** 20,
    rssMb: rss / 2 ** 20,
  };
  console.log(JSON.stringify({ ...run, kept: kept !== undefined }));
}

const only = process.argv[2];
if (only) {
  const kind = KINDS.find((k) => k === only);
  if (!kind) throw new Error(`unknown kind ${only}`);
  measure(kind);
} else {
  const run = startRun();
  console.log(`load: ${loadLine()}`);
  const runs: Record<Kind, Run[]> = { reference: [], prebuilt: [], 'from packages': [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? KINDS : [...KINDS].reverse();
    for (const kind of order) {
      const child = spawnSync(process.execPath, ['--expose-gc', here, kind], { encoding: 'utf8', maxBuffer: 1 << 24 });
      if (child.status !== 0) throw new Error(child.stderr);
      const line = child.stdout.trim().split('\n').pop() ?? '';
      runs[kind].push(JSON.parse(line));
    }
  }
  const figures = Object.fromEntries(
    KINDS.map((kind) => [
      kind,
      {
        cpuMs: spread(runs[kind].map((x) => round(x.cpuMs, 0))),
        rssGrowthMb: spread(runs[kind].map((x) => round(x.rssGrowthMb, 0))),
        rssMb: spread(runs[kind].map((x) => round(x.rssMb, 0))),
      },
    ]),
  );
  for (const kind of KINDS) {
    const f = figures[kind];
    console.log(
      `${kind.padEnd(14)} CPU ${formatSpread(f.cpuMs, ' ms')}, RSS +${formatSpread(f.rssGrowthMb, ' MB')} (process ${formatSpread(f.rssMb, ' MB')})`,
    );
  }
  console.log(`load after: ${loadLine()}`);
  writeResults(resultsFile('geo-load.json'), run, { rounds: ROUNDS, loadAfter: loadLine(), ...figures });
}
