/**
 * A realtime crowd on two app instances. BENCH_VIEWERS (default 10 000) map viewers spread over
 * the world's cities (support/views.ts viewMix: 75 % city views, 15 % regional, 10 % world),
 * each a socket that sent its `view` and then only listens, and BENCH_CHATTERS (default 1 000)
 * signed-in people chatting in pairs across the two instances. Measured:
 *   - memory per idle viewer socket: (RSS once the viewers are connected and idle − RSS before)
 *     ÷ sockets, the instances summed, after a full GC in each server;
 *   - post events: BENCH_POST_RATE posts/s (default 10) through POST /api/posts, each by a user
 *     of its own at a city centre; latency from the POST issued to each viewer socket whose view
 *     holds the point receiving its `post.created`; deliveries/s;
 *   - messages: BENCH_MESSAGE_RATE/s (default 200) at the same time, latency and deliveries/s;
 *   - server CPU seconds per instance over the measured window (BENCH_SECONDS, default 20).
 * Cases, alternated in each of BENCH_ROUNDS rounds (default 3): the bare relay (relay.ts, one
 * process: the reference), two app instances on one PostgreSQL database with the PostgreSQL bus
 * (LISTEN/NOTIFY), and — when BENCH_REDIS_URL or REDIS_URL names a Redis — the same with the
 * Redis bus. The sockets are held by two client processes (client.ts), the posts sent from
 * this one; all of them apart from the servers'.
 *
 * Also: BENCH_WARMUP_SECONDS (3), BENCH_BATCH (500 sockets connecting at once); to diagnose,
 * BENCH_SERVER_NODE_ARGS (e.g. --cpu-prof), BENCH_SERVER_LOGS=1, BENCH_COUNT_QUERIES=1 (run-case.ts).
 *
 * Run: `npm run bench -- crowd`. Needs PostgreSQL at TEST_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test): a database of the run's own, dropped at the end; the
 * run's Redis keys and bus channel are under a prefix of its own, deleted at the end. Writes
 * bench/results/crowd.json.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/src/db/client.ts';
import { createPostgresDatabase } from '../../server/test/helpers/databases.ts';
import { seedUsers } from '../messages/messages.bench.ts';
import { envPositiveInt } from '../support/env.ts';
import { dropRedisKeys } from '../support/redis-keys.ts';
import { resultsFile, startRun, writeResults } from '../support/results.ts';
import { loadLine } from '../support/stats.ts';
import { viewMix } from '../support/views.ts';
import { createPoster } from './posts.ts';
import { printRounds, summarise } from './report.ts';
import { type CaseResult, type Plan, runCase, type Settings } from './run-case.ts';
import { closeHttp } from './http.ts';
import { freshTokens } from './tokens.ts';

const VIEWERS = envPositiveInt('BENCH_VIEWERS', 10_000);
const CHATTERS = envPositiveInt('BENCH_CHATTERS', 1000);
const ROUNDS = envPositiveInt('BENCH_ROUNDS', 3);
const SETTINGS: Settings = {
  postRate: envPositiveInt('BENCH_POST_RATE', 10),
  messageRate: envPositiveInt('BENCH_MESSAGE_RATE', 200),
  windowMs: envPositiveInt('BENCH_SECONDS', 20) * 1000,
  warmupMs: envPositiveInt('BENCH_WARMUP_SECONDS', 3) * 1000,
  batch: envPositiveInt('BENCH_BATCH', 500),
};
const REDIS_URL = process.env.BENCH_REDIS_URL || process.env.REDIS_URL || '';

/** The soft limit on open files of this process (its children inherit it), or null off Linux. */
function openFilesLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').match(/^Max open files\s+(\d+|unlimited)/m);
    return !line || line[1] === 'unlimited' ? null : Number(line[1]);
  } catch {
    return null;
  }
}

/** The relay's one process holds every socket; each app instance and client process about half. */
function checkLimits(): void {
  if (CHATTERS % 2) throw new Error('BENCH_CHATTERS must be even (pairs)');
  const needed = VIEWERS + CHATTERS + 200;
  const limit = openFilesLimit();
  if (limit !== null && limit < needed) {
    throw new Error(
      `open files limit ${limit} < ${needed}: the relay's process holds ${VIEWERS + CHATTERS} sockets. Raise it (ulimit -n ${needed}) or lower BENCH_VIEWERS.`,
    );
  }
}

/** The cases of one round, each an environment per server process. */
function cases(url: string, jwtSecret: string, prefix: string, round: number) {
  const app = (name: string, bus: Record<string, string>) => {
    // Rate-limit counters in Redis for both app cases when there is one: only the bus differs.
    const env = {
      BENCH_SERVER: 'app',
      BENCH_DATABASE_URL: url,
      BENCH_JWT_SECRET: jwtSecret,
      BENCH_REDIS_URL: REDIS_URL,
      BENCH_REDIS_PREFIX: `${prefix}${round}:${name}:`,
      ...bus,
    };
    return { name, envs: [env, env] };
  };
  return [
    { name: 'bare ws relay (1 process)', envs: [{ BENCH_SERVER: 'relay' }] },
    app('app ×2, PostgreSQL bus', {}),
    ...(REDIS_URL ? [app('app ×2, Redis bus', { BENCH_BUS_URL: REDIS_URL, BENCH_BUS_CHANNEL: `${prefix}bus` })] : []),
  ];
}

async function runRounds(database: Database, url: string, jwtSecret: string, prefix: string): Promise<CaseResult[]> {
  const caseCount = cases(url, jwtSecret, prefix, 0).length;
  const postsPerCase = Math.ceil((SETTINGS.postRate * (SETTINGS.windowMs + SETTINGS.warmupMs)) / 1000) + 5;
  const t = performance.now();
  const seeded = await seedUsers(database, CHATTERS + postsPerCase * caseCount * ROUNDS, jwtSecret);
  console.log(`${seeded.length} users seeded in ${Math.round(performance.now() - t)} ms`);
  const views = viewMix(VIEWERS, 11).map((v) => v.bbox);
  const results: CaseResult[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round} of ${ROUNDS} · load ${loadLine()}`);
    for (const { name, envs } of cases(url, jwtSecret, prefix, round)) {
      // Fresh message_send counters (PostgreSQL's table; Redis's are under the case's prefix).
      await database.db.execute(sql`truncate rate_limits`);
      const users = await freshTokens(seeded, jwtSecret);
      // Each case's posters are users that never posted (one active post per person); the cases
      // of a round post at the same cities in the same order, so their deliveries compare.
      const offset = CHATTERS + postsPerCase * results.length;
      const poster = createPoster(users.slice(offset, offset + postsPerCase), round);
      const plan: Plan = { settings: SETTINGS, views, chatters: users.slice(0, CHATTERS), poster };
      console.log(`${name}`);
      results.push({ ...(await runCase(name, envs, plan)), round });
    }
  }
  return results;
}

async function main(): Promise<void> {
  const run = startRun();
  const loadAtStart = loadLine();
  checkLimits();
  process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  const jwtSecret = randomBytes(32).toString('base64url');
  const { url, drop } = await createPostgresDatabase();
  const prefix = `moodmap:bench:crowd:${process.pid}:${randomBytes(3).toString('hex')}:`;
  let results: CaseResult[] = [];
  let database: Database | null = null;
  try {
    database = await openDatabase({ databaseUrl: url, poolSize: 2 });
    results = await runRounds(database, url, jwtSecret, prefix);
  } finally {
    closeHttp();
    await database?.close();
    await drop();
    if (REDIS_URL) await dropRedisKeys(REDIS_URL, prefix);
  }
  printRounds(results);
  const summary = summarise(results);
  writeResults(resultsFile('crowd.json'), run, {
    viewers: VIEWERS,
    chatters: CHATTERS,
    rounds: ROUNDS,
    settings: SETTINGS,
    bus: REDIS_URL ? 'postgres and redis' : 'postgres',
    rateLimitStore: REDIS_URL ? 'redis' : 'postgres',
    loadAtStart,
    loadAverageAtEnd: loadLine(),
    method: {
      memoryPerSocket: '(Σ instances RSS after the viewers connected and 2 s idle − before) ÷ viewers, after a full GC',
      postLatency: 'POST /api/posts issued → each viewer socket whose view holds the point receives post.created (ms)',
      messageLatency: 'POST issued → the partner socket receives message.created (ms)',
      deliveriesPerSecond: 'deliveries ÷ (first send → last delivery) of the measured window',
    },
    summary,
    results,
  });
}

await main();
