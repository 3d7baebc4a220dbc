/**
 * Hostile input against the event loop. Starts the real server in a
 * process of its own (launcher.ts, which measures its event-loop delay), then from this process
 * sends BENCH_REQUESTS (default 1 500) requests over real HTTP, BENCH_CONCURRENCY (8) at a time,
 * each on a connection of its own, while a prober times GET /api/health on a kept-alive
 * connection every 10 ms. Two kinds of run, alternated for BENCH_ROUNDS (3) rounds:
 *   - benign: well-formed reads, likes, a wrong-password sign-in (the app's everyday mix);
 *   - hostile: the route fuzz's requests (server/test/fuzz/requests.ts, fixed seed) — hostile
 *     paths, queries, bodies up to ~1 MB, 200 000-deep arrays, wrong types and content types.
 * Then the known single worst cases: POST /api/auth/login with an e-mail of `'` followed by
 * 30 000 and 40 000 spaces, each timed alone (and the sanitiser alone on the same strings); and
 * the hostile set replayed one request at a time, naming the ten that block the loop longest.
 * Goal: the event loop's longest block (max delay) ≤ 50 ms during a hostile run.
 *
 * Run: `npx node bench/hostile/hostile.bench.ts` (or `npm run bench -- hostile`). Embedded PGlite
 * by default; BENCH_ENGINE=postgres runs on a PostgreSQL database of its own created next to
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) and dropped at the end.
 * Prints a table, writes bench/results/hostile.json (hostile-postgres.json on PostgreSQL).
 */
import http from 'node:http';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { createPostgresDatabase } from '../../server/test/helpers/databases.ts';
import { isCritical } from '@moodmap/core';
import { describeRequest, requestArbitrary, type FuzzRequest, type WorldIds } from '../../server/test/fuzz/requests.ts';
import type { Route } from '../../server/test/fuzz/route-list.ts';
import { wireExchange } from '../../server/test/fuzz/wire.ts';
import { envPositiveInt } from '../support/env.ts';
import { resultsFile, round, startRun, writeResults } from '../support/results.ts';
import { forkServer } from '../support/server-process.ts';

const here = dirname(fileURLToPath(import.meta.url));
const LAUNCHER = join(here, 'launcher.ts');

const REQUESTS = envPositiveInt('BENCH_REQUESTS', 1500);
const CONCURRENCY = envPositiveInt('BENCH_CONCURRENCY', 8);
const ROUNDS = envPositiveInt('BENCH_ROUNDS', 3);
const SEED = envPositiveInt('BENCH_SEED', 20_240_613);
const PROBE_EVERY_MS = 10;
const GOAL_MS = 50;
const ENGINE = process.env.BENCH_ENGINE === 'postgres' ? 'postgres' : 'pglite';
/** BENCH_ATTRIBUTE=0 skips replaying the hostile set one request at a time to name the worst blockers. */
const ATTRIBUTE = process.env.BENCH_ATTRIBUTE !== '0';
const RESULTS = resultsFile(ENGINE === 'postgres' ? 'hostile-postgres.json' : 'hostile.json');

// ---------------------------------------------------------------------------------------------
// The server process

interface Stats {
  loopMaxMs: number;
  loopP99Ms: number;
  loopMeanMs: number;
  cpuMs: number;
}
interface Listening {
  port: number;
  routes: Route[];
  ids: WorldIds;
  token: string;
}

async function startServer(env: Record<string, string>) {
  const server = forkServer(LAUNCHER, env);
  const listening = await server.next<Listening>('listening');
  return {
    ...listening,
    reset: () => server.ask('reset'),
    stats: () => server.ask<Stats>('stats'),
    token: async () => (await server.ask<{ token: string }>('token')).token,
    close: () => server.close(),
  };
}
type Server = Awaited<ReturnType<typeof startServer>>;

// ---------------------------------------------------------------------------------------------
// Requests

const get = (route: string, path: string, query = ''): FuzzRequest => ({
  route: { method: 'GET', url: route },
  method: 'GET',
  path,
  query,
  headers: {},
  contentType: null,
  body: null,
  ip: '192.0.2.1',
});
const post = (route: string, path: string, value: unknown): FuzzRequest => ({
  route: { method: 'POST', url: route },
  method: 'POST',
  path,
  query: '',
  headers: {},
  contentType: 'application/json',
  body: { kind: 'json', value },
  ip: '192.0.2.1',
});

/** The everyday mix: what the web app asks while people use it. */
function benignRequests(ids: WorldIds, count: number): FuzzRequest[] {
  const since = Buffer.from(`t:${new Date().toISOString()}`).toString('base64url');
  const mix = [
    get('/api/posts', '/api/posts'),
    get('/api/posts/viewport', '/api/posts/viewport', 'west=55.2&south=-21.4&east=55.9&north=-20.8&zoom=12'),
    get('/api/posts/changes', '/api/posts/changes', `since=${since}`),
    get('/api/search', '/api/search', 'q=Bonjour&moods=happy,love'),
    get('/api/posts/:id', `/api/posts/${ids.posts[1]}`),
    get('/api/posts/:id/comments', `/api/posts/${ids.posts[1]}/comments`),
    get('/api/profiles/:id', `/api/profiles/${ids.users[1]}`),
    get('/api/config', '/api/config'),
    get('/api/geo/land', '/api/geo/land', 'lat=48.85&lon=2.35'),
    get('/api/conversations', '/api/conversations'),
    get('/api/conversations/:id/messages', `/api/conversations/${ids.conversations[0]}/messages`),
    post('/api/posts/:id/like', `/api/posts/${ids.posts[1]}/like`, {}),
    post('/api/auth/login', '/api/auth/login', { email: 'personne@example.fr', password: 'Mauvais2024' }),
  ];
  // Distinct client addresses, so per-IP limits answer as for that many visitors.
  return Array.from({ length: count }, (_, i) => ({
    ...mix[i % mix.length],
    ip: `192.0.${(i >> 8) & 255}.${i & 255}`,
  }));
}

// ---------------------------------------------------------------------------------------------
// A run: the load, and the health prober beside it

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

interface RunResult {
  kind: 'benign' | 'hostile';
  round: number;
  requests: number;
  seconds: number;
  serverErrors: number;
  unanswered: number;
  loopMaxMs: number;
  loopP99Ms: number;
  healthP50Ms: number;
  healthP99Ms: number;
  healthMaxMs: number;
  healthSamples: number;
  load1: number;
}

/** Times GET /api/health on one kept-alive connection until `stop` is set. */
async function probeHealth(port: number, stop: { done: boolean }): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  while (!stop.done) {
    const started = performance.now();
    await new Promise<void>((resolve) => {
      http
        .get({ host: '127.0.0.1', port, path: '/api/health', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        })
        .on('error', () => resolve());
    });
    latencies.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
  }
  agent.destroy();
  return latencies;
}

async function run(
  server: Server,
  kind: 'benign' | 'hostile',
  roundNo: number,
  requests: FuzzRequest[],
): Promise<RunResult> {
  const token = await server.token();
  await server.reset();
  const stop = { done: false };
  const prober = probeHealth(server.port, stop);
  const started = performance.now();
  let next = 0;
  let serverErrors = 0;
  let unanswered = 0;
  const worker = async () => {
    for (let i = next++; i < requests.length; i = next++) {
      const request = requests[i];
      // The client address the per-IP limits see (the server trusts X-Forwarded-For here).
      const sent = { ...request, headers: { 'x-forwarded-for': request.ip, ...request.headers } };
      try {
        const answer = await wireExchange(server.port, sent, i % 2 === 1 ? token : undefined);
        if (answer.status >= 500) serverErrors += 1;
        if (answer.status === 0) unanswered += 1;
      } catch {
        unanswered += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  stop.done = true;
  const health = (await prober).sort((a, b) => a - b);
  const stats = await server.stats();
  return {
    kind,
    round: roundNo,
    requests: requests.length,
    seconds: round(seconds),
    serverErrors,
    unanswered,
    loopMaxMs: round(stats.loopMaxMs),
    loopP99Ms: round(stats.loopP99Ms),
    healthP50Ms: round(percentile(health, 50)),
    healthP99Ms: round(percentile(health, 99)),
    healthMaxMs: round(health.at(-1) ?? 0),
    healthSamples: health.length,
    load1: round(os.loadavg()[0], 2),
  };
}

/** One login with a `'` + `spaces` e-mail, alone on the server: its time and the loop's longest block. */
async function worstCase(server: Server, spaces: number) {
  await server.reset();
  const request = post('/api/auth/login', '/api/auth/login', { email: `'${' '.repeat(spaces)}`, password: 'x' });
  const started = performance.now();
  const answer = await wireExchange(server.port, {
    ...request,
    headers: { 'x-forwarded-for': `198.18.0.${spaces % 250}` },
  });
  const ms = performance.now() - started;
  const stats = await server.stats();
  return { emailLength: spaces + 1, status: answer.status, ms: round(ms), loopMaxMs: round(stats.loopMaxMs) };
}

/** The sanitiser alone on the same e-mail, in this process: whether its patterns are linear, whatever the body limits. */
function sanitiserAlone(spaces: number) {
  const started = performance.now();
  isCritical(`'${' '.repeat(spaces)}`);
  return { emailLength: spaces + 1, ms: round(performance.now() - started) };
}

/**
 * Which hostile requests block the loop: each sent alone, the loop's longest block measured
 * around it. The top ones name what to fix.
 */
async function worstRequests(server: Server, requests: FuzzRequest[], top = 10) {
  const token = await server.token();
  const measured: Array<{ loopMaxMs: number; status: number; request: string }> = [];
  for (const [i, request] of requests.entries()) {
    await server.reset();
    const signedIn = i % 2 === 1;
    const answer = await wireExchange(
      server.port,
      { ...request, headers: { 'x-forwarded-for': request.ip, ...request.headers } },
      signedIn ? token : undefined,
    ).catch(() => ({ status: 0 }));
    const stats = await server.stats();
    measured.push({
      loopMaxMs: round(stats.loopMaxMs),
      status: answer.status,
      request: describeRequest(request, signedIn).replace(/\n\s*/g, ' | ').slice(0, 400),
    });
  }
  return measured.sort((a, b) => b.loopMaxMs - a.loopMaxMs).slice(0, top);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const runInfo = startRun();
  let drop = async () => {};
  const env: Record<string, string> = {};
  if (ENGINE === 'postgres') {
    process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
    const created = await createPostgresDatabase();
    env.BENCH_DATABASE_URL = created.url;
    drop = created.drop;
  }
  const server = await startServer(env);
  const results: RunResult[] = [];
  let worst: Array<Awaited<ReturnType<typeof worstCase>>> = [];
  let blockers: Array<Awaited<ReturnType<typeof worstRequests>>[number]> = [];
  try {
    const hostile = fc.sample(requestArbitrary(server.routes, server.ids), { seed: SEED, numRuns: REQUESTS });
    const benign = benignRequests(server.ids, REQUESTS);
    console.log(
      `engine ${ENGINE}, ${server.routes.length} routes, ${REQUESTS} requests per run, concurrency ${CONCURRENCY}, ${ROUNDS} rounds (load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    );
    for (let r = 1; r <= ROUNDS; r++) {
      for (const kind of ['benign', 'hostile'] as const) {
        const result = await run(server, kind, r, kind === 'benign' ? benign : hostile);
        results.push(result);
        console.log(
          `round ${r} ${kind.padEnd(7)} ${result.seconds} s  loop max ${result.loopMaxMs} ms p99 ${result.loopP99Ms} ms  health p50 ${result.healthP50Ms} p99 ${result.healthP99Ms} max ${result.healthMaxMs} ms  5xx ${result.serverErrors}  load ${result.load1}`,
        );
      }
    }
    worst = [await worstCase(server, 30_000), await worstCase(server, 40_000)];
    if (ATTRIBUTE) blockers = await worstRequests(server, hostile);
  } finally {
    await server.close();
    await drop();
  }

  const summary = (['benign', 'hostile'] as const).map((kind) => {
    const runs = results.filter((r) => r.kind === kind);
    const figure = (key: keyof RunResult) => {
      const values = runs.map((r) => Number(r[key]));
      return { median: round(median(values)), spread: round(Math.max(...values) - Math.min(...values)) };
    };
    return {
      kind,
      loopMaxMs: figure('loopMaxMs'),
      loopP99Ms: figure('loopP99Ms'),
      healthP50Ms: figure('healthP50Ms'),
      healthP99Ms: figure('healthP99Ms'),
      healthMaxMs: figure('healthMaxMs'),
      serverErrors: runs.reduce((n, r) => n + r.serverErrors, 0),
    };
  });
  console.log('\nmedian (spread) over rounds, ms');
  console.table(
    Object.fromEntries(
      summary.map((s) => [
        s.kind,
        {
          'loop max': `${s.loopMaxMs.median} (±${s.loopMaxMs.spread})`,
          'loop p99': `${s.loopP99Ms.median} (±${s.loopP99Ms.spread})`,
          'health p50': `${s.healthP50Ms.median} (±${s.healthP50Ms.spread})`,
          'health p99': `${s.healthP99Ms.median} (±${s.healthP99Ms.spread})`,
          'health max': `${s.healthMaxMs.median} (±${s.healthMaxMs.spread})`,
          '5xx': s.serverErrors,
        },
      ]),
    ),
  );
  console.log("single requests: POST /api/auth/login, e-mail = ' + spaces");
  console.table(worst);
  const sanitiser = [sanitiserAlone(30_000), sanitiserAlone(40_000)];
  console.log('the sanitiser alone (isCritical) on the same e-mails, in this process');
  console.table(sanitiser);
  if (blockers.length > 0) {
    console.log('hostile requests that block the loop longest, each sent alone');
    for (const b of blockers) console.log(`${String(b.loopMaxMs).padStart(7)} ms  ${b.status}  ${b.request}`);
  }
  const hostileWorst = Math.max(
    ...results.filter((r) => r.kind === 'hostile').map((r) => r.loopMaxMs),
    ...worst.map((w) => w.loopMaxMs),
  );
  const met = hostileWorst <= GOAL_MS;
  console.log(
    `goal: event-loop max ≤ ${GOAL_MS} ms during hostile input — ${met ? 'met' : 'NOT met'} (worst ${hostileWorst} ms)`,
  );

  writeResults(RESULTS, runInfo, {
    engine: ENGINE,
    requestsPerRun: REQUESTS,
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    seed: SEED,
    loadAverageAtEnd: round(os.loadavg()[0], 2),
    goal: { loopMaxMs: GOAL_MS, met, worstLoopMaxMs: hostileWorst },
    summary,
    runs: results,
    loginWorstCases: worst,
    sanitiserAlone: sanitiser,
    worstHostileRequests: blockers,
  });
}

await main();
