/**
 * The event loop's longest block under the basemap and hostile input. Starts the real server in
 * a process of its own (bench/hostile/launcher.ts: buildApp on an in-memory PGlite, the fuzz
 * world, prepareGeoAssets, event-loop delay measured by monitorEventLoopDelay at 1 ms and read
 * over the bench's IPC channel — no route exposes it). From this process, each round:
 *   - reference: BENCH_HEALTH (2 000) GET /api/health, the cheapest route;
 *   - tiles: its share of BENCH_TILES (10 000) distinct basemap tiles, z0 to GEO_TILE_MAX_ZOOM
 *     around the bench's cities, none asked before (each a first cut);
 *   - hostile: BENCH_REQUESTS (1 500) requests of the route fuzz (server/test/fuzz/requests.ts,
 *     fixed seed) — hostile paths, queries and bodies, half of them signed in;
 * all BENCH_CONCURRENCY (8) at a time, for BENCH_ROUNDS (3) rounds; the loop's max delay of each
 * run is printed, median and spread over the rounds, with the load average.
 * Goal: tiles and hostile ≤ 50 ms.
 *
 * Run: `npx node bench/event-loop/event-loop.bench.ts` (or `npm run bench -- event-loop`).
 * Writes bench/results/event-loop.json.
 */
import http from 'node:http';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { GEO_TILE_MAX_ZOOM } from '@moodmap/core';
import { requestArbitrary, type FuzzRequest, type WorldIds } from '../../server/test/fuzz/requests.ts';
import type { Route } from '../../server/test/fuzz/route-list.ts';
import { wireExchange } from '../../server/test/fuzz/wire.ts';
import { envPositiveInt } from '../support/env.ts';
import { resultsFile, round, startRun, writeResults } from '../support/results.ts';
import { forkServer } from '../support/server-process.ts';
import { formatSpread, loadLine, spread } from '../support/stats.ts';
import { CITIES, random } from '../support/world.ts';

const LAUNCHER = join(dirname(fileURLToPath(import.meta.url)), '..', 'hostile', 'launcher.ts');
const RESULTS = resultsFile('event-loop.json');

const TILES = envPositiveInt('BENCH_TILES', 10_000);
const HEALTH = envPositiveInt('BENCH_HEALTH', 2000);
const REQUESTS = envPositiveInt('BENCH_REQUESTS', 1500);
const CONCURRENCY = envPositiveInt('BENCH_CONCURRENCY', 8);
const ROUNDS = envPositiveInt('BENCH_ROUNDS', 3);
const SEED = envPositiveInt('BENCH_SEED', 20_240_613);
const GOAL_MS = 50;
/** Tiles around each city at every zoom: (2 × radius + 1)² before duplicates. */
const TILE_RADIUS = 3;

type Kind = 'health' | 'tiles' | 'hostile';

interface Stats {
  loopMaxMs: number;
  loopP99Ms: number;
}
interface Listening {
  port: number;
  routes: Route[];
  ids: WorldIds;
  token: string;
}

/** Every z/x/y within TILE_RADIUS of a city at each zoom, shuffled (fixed seed), the first `count`. */
function crawlTiles(count: number): string[] {
  const tiles = new Set<string>();
  for (const [, lat, lon] of CITIES) {
    for (let z = 0; z <= GEO_TILE_MAX_ZOOM; z++) {
      const n = 2 ** z;
      const cx = Math.floor(((lon + 180) / 360) * n);
      const cy = Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
      for (let x = cx - TILE_RADIUS; x <= cx + TILE_RADIUS; x++) {
        for (let y = cy - TILE_RADIUS; y <= cy + TILE_RADIUS; y++) {
          if (x >= 0 && y >= 0 && x < n && y < n) tiles.add(`${z}/${x}/${y}`);
        }
      }
    }
  }
  const list = [...tiles];
  const next = random(SEED);
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  if (list.length < count)
    throw new Error(`only ${list.length} distinct tiles around the cities; BENCH_TILES=${count}`);
  return list.slice(0, count);
}

/** GETs every path over kept-alive connections, `CONCURRENCY` at a time; the statuses seen. */
async function getAll(port: number, paths: string[]): Promise<Record<number, number>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const statuses: Record<number, number> = {};
  let next = 0;
  const client = async () => {
    for (let i = next++; i < paths.length; i = next++) {
      const status = await new Promise<number>((resolve) => {
        // A client address per request, so per-IP limits count as for many visitors.
        const headers = { 'accept-encoding': 'gzip', 'x-forwarded-for': `198.51.${(i >> 8) & 255}.${i & 255}` };
        http
          .get({ host: '127.0.0.1', port, path: paths[i], agent, headers }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          })
          .on('error', () => resolve(0));
      });
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  agent.destroy();
  return statuses;
}

/** Sends the fuzzed requests as the hostile bench does, each on a connection of its own. */
async function sendHostile(port: number, requests: FuzzRequest[], token: string): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  const client = async () => {
    for (let i = next++; i < requests.length; i = next++) {
      const request = requests[i];
      const sent = { ...request, headers: { 'x-forwarded-for': request.ip, ...request.headers } };
      const status = await wireExchange(port, sent, i % 2 === 1 ? token : undefined).then(
        (a) => a.status,
        () => 0,
      );
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return statuses;
}

interface RunResult {
  kind: Kind;
  round: number;
  requests: number;
  seconds: number;
  loopMaxMs: number;
  loopP99Ms: number;
  statuses: Record<number, number>;
  load1: number;
}

async function main() {
  const runInfo = startRun();
  const server = forkServer(LAUNCHER, {});
  const listening = await server.next<Listening>('listening');
  const results: RunResult[] = [];
  const tiles = crawlTiles(TILES);
  try {
    const hostile = fc.sample(requestArbitrary(listening.routes, listening.ids), { seed: SEED, numRuns: REQUESTS });
    console.log(
      `${TILES} distinct tiles z0–z${GEO_TILE_MAX_ZOOM} over ${ROUNDS} rounds, ${HEALTH} health and ${REQUESTS} hostile requests per round, concurrency ${CONCURRENCY} (load ${loadLine()})`,
    );
    for (let r = 1; r <= ROUNDS; r++) {
      // Each round its own tiles: every one a first cut.
      const roundTiles = tiles.filter((_, i) => i % ROUNDS === r - 1).map((t) => `/api/geo/tiles/${t}.pbf`);
      const runs: Array<[Kind, number, () => Promise<Record<number, number>>]> = [
        [
          'health',
          HEALTH,
          () =>
            getAll(
              listening.port,
              Array.from({ length: HEALTH }, () => '/api/health'),
            ),
        ],
        ['tiles', roundTiles.length, () => getAll(listening.port, roundTiles)],
        [
          'hostile',
          hostile.length,
          async () => sendHostile(listening.port, hostile, (await server.ask<{ token: string }>('token')).token),
        ],
      ];
      for (const [kind, requests, send] of runs) {
        await server.ask('reset');
        const started = performance.now();
        const statuses = await send();
        const seconds = (performance.now() - started) / 1000;
        const stats = await server.ask<Stats>('stats');
        const result = {
          kind,
          round: r,
          requests,
          seconds: round(seconds),
          loopMaxMs: round(stats.loopMaxMs),
          loopP99Ms: round(stats.loopP99Ms),
          statuses,
          load1: round(os.loadavg()[0], 2),
        };
        results.push(result);
        console.log(
          `round ${r} ${kind.padEnd(7)} ${String(requests).padStart(5)} requests ${result.seconds} s  loop max ${result.loopMaxMs} ms p99 ${result.loopP99Ms} ms  statuses ${JSON.stringify(statuses)}  load ${result.load1}`,
        );
      }
    }
  } finally {
    await server.close();
  }

  const summarise = (kind: Kind) => {
    const runs = results.filter((r) => r.kind === kind);
    return { loopMaxMs: spread(runs.map((r) => r.loopMaxMs)), loopP99Ms: spread(runs.map((r) => r.loopP99Ms)) };
  };
  const summary = { health: summarise('health'), tiles: summarise('tiles'), hostile: summarise('hostile') };
  console.log('\nevent-loop delay, median (min–max) over rounds');
  console.table(
    Object.fromEntries(
      Object.entries(summary).map(([kind, s]) => [
        kind,
        { 'loop max': formatSpread(s.loopMaxMs, ' ms'), 'loop p99': formatSpread(s.loopP99Ms, ' ms') },
      ]),
    ),
  );
  const worst = Math.max(...results.filter((r) => r.kind !== 'health').map((r) => r.loopMaxMs));
  const met = worst <= GOAL_MS;
  console.log(
    `goal: event-loop max ≤ ${GOAL_MS} ms while crawling tiles and under hostile input — ${met ? 'met' : 'NOT met'} (worst ${worst} ms; health reference ${summary.health.loopMaxMs.median} ms)`,
  );
  writeResults(RESULTS, runInfo, {
    tiles: TILES,
    tileZooms: `0-${GEO_TILE_MAX_ZOOM}`,
    healthPerRound: HEALTH,
    hostilePerRound: REQUESTS,
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    seed: SEED,
    loadAtEnd: loadLine(),
    goal: { loopMaxMs: GOAL_MS, met, worstLoopMaxMs: worst },
    summary,
    runs: results,
  });
}

await main();
