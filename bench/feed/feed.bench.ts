/**
 * The map feed, measured so it cannot flatter. For each engine (PGlite, and
 * PostgreSQL in a database of the run's own when TEST_DATABASE_URL is set) and each size
 * (BENCH_SIZES, default 1e3,1e4,1e5,1e6; PGlite stops at BENCH_PGLITE_MAX, default 1e5), a server
 * process is seeded in SQL and started with logs at the default level; the load comes from this
 * process (autocannon, BENCH_CONNECTIONS connections). The requests are a mix of viewport URLs
 * made the way the web app makes them (support/views.ts: 512-px tiles, its padding and rounding,
 * phones/desktops/tablets, 75 % city views at zoom 11–15, 15 % regional, 10 % world):
 *   - warm: BENCH_DURATION s of draws from a mix of BENCH_VIEWS views, after a warm-up pass
 *     (what most users get once the popular views are cached);
 *   - cold: each view of a fresh mix requested once (first viewer of each view);
 * alternated with the bare Fastify hello route (its own process) A/B/A/B, BENCH_ROUNDS rounds;
 * each ratio is feed ÷ the hello of its own round, median and spread printed.
 * Every request carries the Accept-Encoding a browser sends (the web app always gets gzip bytes).
 * On PostgreSQL it also times the viewport SQL itself on views of ~1 000 posts (support/app-server.ts
 * captures the statements the app sends, then replays each): the p95 of the goal table. The table
 * is vacuumed first, as autovacuum does within a minute of the seed (its insert threshold), so
 * index-only scans are measured as a running server gets them (BENCH_VACUUM=0: right after the seed).
 * BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each app server process there (--cpu-prof).
 * Writes bench/results/feed.json. Run: `npm run bench -- feed` (BENCH_SIZES=1000 for a smoke run).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createPostgresDatabase } from '../../server/test/helpers/databases.ts';
import { envNumber } from '../support/env.ts';
import { resultsFile, round, startRun, writeResults } from '../support/results.ts';
import { forkServer, type ServerProcess } from '../support/server-process.ts';
import { formatSpread, loadLine, percentile, sig, spread, type Spread } from '../support/stats.ts';
import { type View, viewMix } from '../support/views.ts';
import { CITIES } from '../support/world.ts';
import { requestedView } from '../support/views.ts';
import { type Load, load as runLoad, probeLatency } from '../support/load.ts';

const here = dirname(fileURLToPath(import.meta.url));
const RESULTS = resultsFile('feed.json');
const APP = join(here, '..', 'support', 'app-server.ts');
const HELLO = join(here, '..', 'support', 'hello-server.ts');

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000,1000000').split(',').map(Number);
const PGLITE_MAX = envNumber('BENCH_PGLITE_MAX', 100_000);
const ROUNDS = envNumber('BENCH_ROUNDS', 3);
const DURATION_S = envNumber('BENCH_DURATION', 10);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 10);
const VIEWS = envNumber('BENCH_VIEWS', 1800);
/** Cold views per round: each requested once (a fresh mix per round). */
const COLD_VIEWS = envNumber('BENCH_COLD_VIEWS', 300);
/** Requests of the one-client latency probe per round (support/load.ts probeLatency). */
const PROBE_REQUESTS = envNumber('BENCH_PROBE_REQUESTS', 600);

const VACUUM = process.env.BENCH_VACUUM !== '0';
const CPU_PROF = process.env.BENCH_CPU_PROF;
/** What Chromium and Firefox send on a fetch. */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/** Each load run, from this process: autocannon on `paths()` (support/load.ts). */
const load = (base: string, paths: (() => string) | null, opts: { duration?: number; amount?: number }) =>
  runLoad(base, paths, { connections: CONNECTIONS, headers: BROWSER_HEADERS, ...opts });

async function start(
  script: string,
  env: Record<string, string>,
  execArgv: string[] = [],
): Promise<{ base: string; server: ServerProcess; seedSeconds: number }> {
  const server = forkServer(script, env, execArgv, true);
  const { port, seedSeconds } = await server.next<{ port: number; seedSeconds?: number }>('listening');
  return { base: `http://127.0.0.1:${port}`, server, seedSeconds: seedSeconds ?? 0 };
}

/** City views of about 1 000 posts (600–1 600 counted in SQL), as the app requests them. */
async function thousandPostViews(url: string): Promise<Array<{ path: string; posts: number }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found: Array<{ path: string; posts: number }> = [];
    for (const [, lat, lon] of CITIES) {
      for (const zoom of [11, 12, 13, 14]) {
        const view = requestedView(lat, lon, zoom + 0.5, 390, 844);
        const [west, south, east, north] = view.bbox;
        const { rows } = await client.query<{ n: number }>(
          'select count(*)::int as n from publications where longitude between $1 and $3 and latitude between $2 and $4',
          [west, south, east, north],
        );
        const n = rows[0].n;
        if (n >= 600 && n <= 1600) {
          found.push({ path: view.path, posts: n });
          break;
        }
      }
      if (found.length >= 30) break;
    }
    return found;
  } finally {
    await client.end();
  }
}

async function vacuum(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('vacuum (analyze) publications');
  } finally {
    await client.end();
  }
}

interface CaseResult {
  engine: string;
  posts: number;
  seedSeconds: number;
  hello: Spread;
  warm: { rps: Spread; ratio: Spread; p50: Spread; p99: Spread };
  /**
   * One client alone, to the microsecond (ms): p50 and p99 on the warm mix, and p50 on views
   * asked for the first time (cache misses: what grows with the posts).
   */
  probe: { p50: Spread; p99: Spread; coldP50: Spread };
  cold: { rps: Spread; ratio: Spread; p50: Spread; p99: Spread };
  sql: {
    views: number;
    postsPerView: number;
    vacuumed: boolean;
    firstP95Ms: number;
    replayP50Ms: number;
    replayP95Ms: number;
  } | null;
  load: string[];
}

async function measureCase(engine: 'pglite' | 'postgres', posts: number, hello: string): Promise<CaseResult> {
  const db = engine === 'postgres' ? await createPostgresDatabase() : null;
  const loads = [`start ${loadLine()}`];
  try {
    const profile = CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF] : [];
    const { base, server, seedSeconds } = await start(
      APP,
      { BENCH_ENGINE: engine, BENCH_DATABASE_URL: db?.url ?? '', BENCH_POSTS: String(posts) },
      profile,
    );
    console.log(`${engine} ${posts}: seeded in ${round(seedSeconds)} s`);
    try {
      // The viewport SQL on ~1 000-post views, first thing, while no answer is cached.
      let sqlResult: CaseResult['sql'] = null;
      if (db) {
        if (VACUUM) await vacuum(db.url);
        const views = await thousandPostViews(db.url);
        if (!views.length) console.log('  viewport SQL: no view of 600–1 600 posts at this size');
        if (views.length) {
          await server.ask('sql-capture');
          for (const v of views) {
            const res = await fetch(base + v.path);
            if (!res.ok) throw new Error(`${v.path}: ${res.status}`);
            await res.arrayBuffer();
          }
          const { first, replays } = await server.ask<{
            first: Array<{ ms: number }>;
            replays: Array<{ ms: number[] }>;
          }>('sql-replay');
          const all = replays.flatMap((r) => r.ms);
          sqlResult = {
            views: views.length,
            postsPerView: Math.round(views.reduce((s, v) => s + v.posts, 0) / views.length),
            vacuumed: VACUUM,
            firstP95Ms: round(
              percentile(
                first.map((f) => f.ms),
                95,
              ),
              2,
            ),
            replayP50Ms: round(percentile(all, 50), 2),
            replayP95Ms: round(percentile(all, 95), 2),
          };
          console.log(
            `  viewport SQL, ${views.length} views of ~${sqlResult.postsPerView} posts: p95 ${sqlResult.replayP95Ms} ms (first run p95 ${sqlResult.firstP95Ms} ms)`,
          );
        }
      }
      const mix = viewMix(VIEWS, 1);
      let k = 0;
      const warmPath = () => mix[Math.floor(Math.random() * mix.length)].path;
      // Warm-up: every view of the mix once, unrecorded.
      await load(base, () => mix[k++ % mix.length].path, { amount: mix.length });
      const helloRuns: Load[] = [];
      const warmRuns: Load[] = [];
      const coldRuns: Load[] = [];
      const probes: number[][] = [];
      const coldProbes: number[][] = [];
      for (let r = 0; r < ROUNDS; r++) {
        helloRuns.push(await load(hello, null, { duration: DURATION_S }));
        warmRuns.push(await load(base, warmPath, { duration: DURATION_S }));
        probes.push(await probeLatency(base, warmPath, PROBE_REQUESTS, BROWSER_HEADERS));
        const fresh: View[] = viewMix(COLD_VIEWS, 5000 + r + posts);
        let f = 0;
        coldProbes.push(await probeLatency(base, () => fresh[f++ % fresh.length].path, COLD_VIEWS, BROWSER_HEADERS));
        const cold: View[] = viewMix(COLD_VIEWS, 1000 + r + posts);
        let c = 0;
        coldRuns.push(await load(base, () => cold[c++ % cold.length].path, { amount: cold.length }));
        loads.push(`round ${r + 1} ${loadLine()}`);
        console.log(
          `  round ${r + 1}: hello ${round(helloRuns[r].rps, 0)} req/s, warm ${round(warmRuns[r].rps, 0)} req/s (p50 ${warmRuns[r].p50} ms; one client p50 ${round(percentile(probes[r], 50), 3)} ms, first asks ${round(percentile(coldProbes[r], 50), 3)} ms), cold ${round(coldRuns[r].rps, 0)} req/s (p50 ${coldRuns[r].p50} ms) · load ${loadLine()}`,
        );
      }
      const ratio = (runs: Load[]) => spread(runs.map((run, i) => run.rps / helloRuns[i].rps));
      const figures = (runs: Load[]) => ({
        rps: spread(runs.map((x) => x.rps)),
        ratio: ratio(runs),
        p50: spread(runs.map((x) => x.p50)),
        p99: spread(runs.map((x) => x.p99)),
      });
      return {
        engine,
        posts,
        seedSeconds: round(seedSeconds),
        hello: spread(helloRuns.map((x) => x.rps)),
        warm: figures(warmRuns),
        cold: figures(coldRuns),
        probe: {
          p50: spread(probes.map((p) => round(percentile(p, 50), 3))),
          p99: spread(probes.map((p) => round(percentile(p, 99), 3))),
          coldP50: spread(coldProbes.map((p) => round(percentile(p, 50), 3))),
        },
        sql: sqlResult,
        load: loads,
      };
    } finally {
      await server.close();
    }
  } finally {
    await db?.drop();
  }
}

async function main(): Promise<void> {
  const run = startRun();
  const engines: Array<'pglite' | 'postgres'> = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const hello = await start(HELLO, {});
  const results: CaseResult[] = [];
  try {
    for (const engine of engines) {
      for (const posts of SIZES) {
        if (engine === 'pglite' && posts > PGLITE_MAX) {
          console.log(
            `pglite ${posts}: skipped (BENCH_PGLITE_MAX=${PGLITE_MAX}; seeding and scanning 10^6 rows in PGlite takes too long here)`,
          );
          continue;
        }
        results.push(await measureCase(engine, posts, hello.base));
      }
    }
  } finally {
    await hello.server.close();
  }
  console.log(
    `\nFeed: ${CONNECTIONS} connections, ${DURATION_S} s per warm run, ${COLD_VIEWS} cold views per round, ${ROUNDS} rounds; median (min–max)`,
  );
  console.table(
    results.map((r) => ({
      engine: r.engine,
      posts: r.posts,
      'hello req/s': formatSpread(r.hello),
      'warm req/s': formatSpread(r.warm.rps),
      'warm ÷ hello': formatSpread(r.warm.ratio),
      'warm p50 ms': formatSpread(r.warm.p50),
      'one client p50 ms (warm / first asks)': `${formatSpread(r.probe.p50)} / ${formatSpread(r.probe.coldP50)}`,
      'cold req/s': formatSpread(r.cold.rps),
      'cold ÷ hello': formatSpread(r.cold.ratio),
      'cold p50 ms': formatSpread(r.cold.p50),
      'SQL p95 ms (~1k posts)': r.sql ? r.sql.replayP95Ms : '-',
    })),
  );
  const mix = viewMix(VIEWS, 1);
  writeResults(RESULTS, run, {
    reference: 'bare Fastify hello route, own process, same default log level, alternated with each feed run',
    requestHeaders: BROWSER_HEADERS,
    rounds: ROUNDS,
    durationSeconds: DURATION_S,
    connections: CONNECTIONS,
    mix: {
      views: VIEWS,
      distinctUrls: new Set(mix.map((v) => v.path)).size,
      kinds: Object.fromEntries(['city', 'regional', 'world'].map((k) => [k, mix.filter((v) => v.kind === k).length])),
    },
    coldViewsPerRound: COLD_VIEWS,
    loadAverageAtEnd: loadLine(),
    results,
  });
  // For the summary: the few figures the goal table quotes.
  const figure = (engine: string, posts: number) => results.find((r) => r.engine === engine && r.posts === posts);
  const pgOrLite = (posts: number) => figure('postgres', posts) ?? figure('pglite', posts);
  const small = pgOrLite(Math.min(...SIZES));
  const large = pgOrLite(Math.max(...SIZES));
  if (small && large && small !== large) {
    console.log(
      `feed p50 at ${large.posts} ÷ at ${small.posts} (${large.engine}, one client): first asks ${sig(large.probe.coldP50.median / small.probe.coldP50.median)}, warm mix ${sig(large.probe.p50.median / small.probe.p50.median)}`,
    );
  }
}

await main();
