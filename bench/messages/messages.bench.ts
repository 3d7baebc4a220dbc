/**
 * Private messages under load. BENCH_CLIENTS (default 1 000) users in
 * conversation pairs each hold a WebSocket. After a warm-up of BENCH_WARMUP messages,
 * BENCH_MESSAGES (default 3 000) are sent at BENCH_RATE messages/s (default 200) in waves every
 * BENCH_WAVE_MS, round-robin over the users: the latency figures. Then BENCH_SATURATION more
 * (default 10 000, 0 to skip) with BENCH_CONCURRENCY sends in flight (default 64): the most
 * deliveries per second the server reaches here. Each user sends a handful in all, far under
 * message_send's 100 an hour, and counters are reset between cases.
 * Latency: send issued → the other participant's socket receives 'message.created' with that id.
 * A message is sent as the web app sends a text, a `message.send` request on the sender's socket
 * answered by a `reply`; in the case 'two-http', by a POST (as an image goes, or a tab whose socket
 * is not signed in yet): the reference for the server's CPU a message.
 *
 * Three servers, each driven by the same client code (clients.ts), each in processes of their
 * own (server.ts), the clients in this one:
 *   - bare ws: node:http + ws relaying to the pair in memory (relay.ts), the floor;
 *   - one instance: the real app on a PostgreSQL database of this run's own;
 *   - two instances on PG: two app processes on that database; the two users of a pair sit on
 *     different instances, the sender sends through its own, the event crosses by LISTEN/NOTIFY;
 *   - the same with every message POSTed ('two-http').
 * Users, profiles and sessions are inserted in SQL; access tokens are signed with the server's
 * own token module and the JWT secret both instances share (no sign-up, argon2 or human check).
 *
 * Run: `npx node bench/messages/messages.bench.ts` (or `npm run bench -- messages`). Needs
 * PostgreSQL at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); the database
 * it creates is dropped at the end. BENCH_REDIS_URL (or else REDIS_URL, as a deployment of several
 * instances has it) puts the rate-limit counters in Redis; without either they live in PostgreSQL.
 * Prints a table, writes bench/results/messages.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { RATE_LIMITS, termsAt } from '@moodmap/core';
import { openDatabase, type Database } from '../../server/src/db/client.ts';
import { loadServerSecret } from '../../server/src/modules/auth/secret.ts';
import { deriveKeys, signAccessToken } from '../../server/src/modules/auth/tokens.ts';
import { createPostgresDatabase } from '../../server/test/helpers/databases.ts';
import { closeClients, runLoad, type BenchUser, type LoadResult, type PhaseName, type Transport } from './clients.ts';
import { envPositiveInt } from '../support/env.ts';
import { dropRedisKeys } from '../support/redis-keys.ts';
import { resultsFile, round, startRun, writeResults } from '../support/results.ts';
import { forkServer } from '../support/server-process.ts';
import { formatSpread, loadLine, spread } from '../support/stats.ts';

const here = dirname(fileURLToPath(import.meta.url));
const RESULTS = resultsFile('messages.json');
const SERVER = join(here, 'server.ts');

const CLIENTS = envPositiveInt('BENCH_CLIENTS', 1000);
const MESSAGES = envPositiveInt('BENCH_MESSAGES', 3000);
const WARMUP = envPositiveInt('BENCH_WARMUP', 500);
const RATE = envPositiveInt('BENCH_RATE', 200);
const WAVE_MS = envPositiveInt('BENCH_WAVE_MS', 50);
// 10 000, not 2 000: the bare relay got through 2 000 in 0.1–0.3 s, too short a window to be
// more than noise (7 356–17 707/s over three rounds); the ceiling is now held for seconds.
const SATURATION = Number(process.env.BENCH_SATURATION ?? 10000);
const CONCURRENCY = envPositiveInt('BENCH_CONCURRENCY', 64);
const DELIVERY_TIMEOUT_MS = 15_000;
/** Which cases to run: relay, one, two, two-http (all but one by default: the goals' cases). */
const CASES = new Set((process.env.BENCH_CASES ?? 'relay,two,two-http').split(',').map((c) => c.trim()));
/** Rounds of the cases alternated (relay, two, relay, two, …): median and spread over them. */
const ROUNDS = envPositiveInt('BENCH_ROUNDS', 3);
/** Where the app keeps its rate-limit counters: Redis when a URL is given, else PostgreSQL. */
const REDIS_URL = process.env.BENCH_REDIS_URL || process.env.REDIS_URL || '';

// ---------------------------------------------------------------------------------------------
// Server processes

interface ServerProcess {
  base: string;
  /** Starts counting CPU time and event-loop delay from now. */
  reset(): Promise<void>;
  stats(): Promise<{ cpuMs: number; loopP99Ms: number; loopMaxMs: number }>;
  close(): Promise<void>;
}

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  // Logs at the default level go to /dev/null: written, as deployed, without flooding the table.
  const server = forkServer(SERVER, env, process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [], true);
  const { port } = await server.next<{ port: number }>('listening');
  return {
    base: `http://127.0.0.1:${port}`,
    reset: async () => {
      await server.ask('reset');
    },
    stats: () => server.ask<{ cpuMs: number; loopP99Ms: number; loopMaxMs: number }>('stats'),
    close: () => server.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// Users

/** `count` users with profiles and a live session each, in one statement per batch; signed tokens. */
export async function seedUsers(database: Database, count: number, jwtSecret: string): Promise<BenchUser[]> {
  const keys = deriveKeys(await loadServerSecret({ jwtSecret, dataDir: null }));
  const rows = Array.from({ length: count }, (_, n) => ({ u: randomUUID(), s: randomUUID(), n }));
  // Posting and writing need the terms in force accepted (server/src/policies/standing.ts).
  const terms = termsAt(new Date()).current.version;
  for (let i = 0; i < rows.length; i += 2000) {
    await database.db.execute(sql`
      with x as (select * from json_to_recordset(${JSON.stringify(rows.slice(i, i + 2000))}::json) as x(u uuid, s uuid, n int)),
      new_users as (
        insert into users (id, email, password_hash, email_confirmed_at, metadata, terms_version)
        select u, 'bench.' || n || '@bench.invalid', 'not-a-hash', now(), '{"first_name":"Léa","last_name":"Martin"}'::jsonb, ${terms} from x
      ), new_profiles as (
        insert into profiles (id, username) select u, 'membre_' || n from x
      )
      insert into auth_sessions (id, user_id, kind) select s, u, 'password' from x`);
  }
  const now = new Date();
  return Promise.all(
    rows.map(async ({ u, s, n }) => ({
      id: u,
      token: await signAccessToken(keys, { userId: u, email: `bench.${n}@bench.invalid`, sessionId: s }, now),
      // TEST-NET-3 and beyond: one address per user.
      ip: `203.${Math.floor(n / 65536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}`,
    })),
  );
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL's share

/**
 * CPU time (ms) of each PostgreSQL backend connected to the bench database, read from /proc
 * (PostgreSQL runs on this machine). Null when it cannot be read (remote server, no /proc).
 */
async function backendCpu(database: Database): Promise<Map<number, number> | null> {
  const host = new URL(database.connectionString ?? 'x://remote').hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host) || !existsSync('/proc/self/stat')) return null;
  const { rows } = await database.db.execute(
    sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows as Array<{ pid: number }>) {
    try {
      // Fields 14 and 15 (utime, stime) in clock ticks, after the parenthesised command name.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      cpu.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    } catch {
      // The backend ended meanwhile (an idle pool connection closed).
    }
  }
  return cpu;
}

// ---------------------------------------------------------------------------------------------
// Run

interface CaseResult extends LoadResult {
  case: string;
  transport: Transport;
  round: number;
  load: string;
  instances: number;
  /** Server CPU time (all its processes) during the paced phase. */
  serverCpuMs: number;
  serverCpuMsPerMessage: number;
  /** CPU time of the database's PostgreSQL backends during the paced phase, per message (null if unknown). */
  postgresCpuMsPerMessage: number | null;
  serverLoopDelayP99Ms: number;
  /** The same two per message over the saturated phase (null when it did not run). */
  saturatedServerCpuMsPerMessage: number | null;
  saturatedPostgresCpuMsPerMessage: number | null;
}

/**
 * One case: its servers started one after the other (each app instance runs the migrations at
 * start-up), measured, then closed whatever happened.
 */
async function runCase(
  name: string,
  transport: Transport,
  envs: Array<Record<string, string>>,
  users: BenchUser[],
  database: Database | null,
): Promise<CaseResult> {
  const servers: ServerProcess[] = [];
  try {
    for (const env of envs) servers.push(await startServer(env));
    return await measure(name, transport, servers, users, database);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

interface PhaseCost {
  serverCpuMs: number;
  loopP99Ms: number;
  postgresCpuMs: number | null;
}

/** Runs the load on the case's servers, client i talking to server i mod n. */
async function measure(
  name: string,
  transport: Transport,
  servers: ServerProcess[],
  users: BenchUser[],
  database: Database | null,
): Promise<CaseResult> {
  console.log(
    `${name}: ${users.length} clients, ${WARMUP} warm-up + ${MESSAGES} messages at ${RATE}/s over ${transport}` +
      (SATURATION ? `, then ${SATURATION} with ${CONCURRENCY} in flight` : ''),
  );
  // The servers' and PostgreSQL's CPU over each measured phase.
  const cost: Partial<Record<PhaseName, PhaseCost>> = {};
  let pgBefore: Map<number, number> | null = null;
  const result = await runLoad({
    users,
    baseOf: (i) => servers[i % servers.length].base,
    transport,
    messages: MESSAGES,
    warmup: WARMUP,
    rate: RATE,
    waveMs: WAVE_MS,
    deliveryTimeoutMs: DELIVERY_TIMEOUT_MS,
    saturationMessages: SATURATION,
    concurrency: CONCURRENCY,
    beforeRun: async () => {
      await Promise.all(servers.map((s) => s.reset()));
      pgBefore = database && (await backendCpu(database));
    },
    afterRun: async (phase) => {
      const stats = await Promise.all(servers.map((s) => s.stats()));
      const after = pgBefore && database && (await backendCpu(database));
      cost[phase] = {
        serverCpuMs: stats.reduce((a, s) => a + s.cpuMs, 0),
        loopP99Ms: Math.max(...stats.map((s) => s.loopP99Ms)),
        postgresCpuMs:
          pgBefore && after ? [...after].reduce((sum, [pid, ms]) => sum + ms - (pgBefore!.get(pid) ?? 0), 0) : null,
      };
    },
  });
  if (result.paced.errors) console.log(`  errors at ${RATE}/s: ${JSON.stringify(result.paced.errorKinds)}`);
  if (result.saturated?.errors)
    console.log(`  errors with ${CONCURRENCY} in flight: ${JSON.stringify(result.saturated.errorKinds)}`);
  const perMessage = (ms: number | null | undefined, delivered: number | undefined) =>
    ms === null || ms === undefined || !delivered ? null : round(ms / delivered, 3);
  const paced = cost.paced;
  return {
    case: name,
    transport,
    round: 0,
    load: loadLine(),
    instances: servers.length,
    ...result,
    serverCpuMs: round(paced?.serverCpuMs ?? 0, 0),
    serverCpuMsPerMessage: round((paced?.serverCpuMs ?? 0) / Math.max(1, result.paced.delivered), 2),
    postgresCpuMsPerMessage: perMessage(paced?.postgresCpuMs, result.paced.delivered),
    serverLoopDelayP99Ms: round(paced?.loopP99Ms ?? 0, 1),
    saturatedServerCpuMsPerMessage: perMessage(cost.saturated?.serverCpuMs, result.saturated?.delivered),
    saturatedPostgresCpuMsPerMessage: perMessage(cost.saturated?.postgresCpuMs, result.saturated?.delivered),
  };
}

const inRound = (round: number, result: CaseResult): CaseResult => ({ ...result, round });

const RELAY = 'bare ws (node:http + ws relay)';
const TWO = 'two instances on PG (LISTEN/NOTIFY)';
const TWO_HTTP = 'two instances on PG, messages POSTed';

/** Median and spread over the rounds, and each round's two-instance ceiling ÷ the relay's of the same round. */
function summarise(results: CaseResult[]) {
  const byCase = new Map<string, CaseResult[]>();
  for (const r of results) byCase.set(r.case, [...(byCase.get(r.case) ?? []), r]);
  const cases = [...byCase].map(([name, runs]) => ({
    case: name,
    p50: spread(runs.map((r) => r.paced.p50)),
    p99: spread(runs.map((r) => r.paced.p99)),
    maxDeliveries: runs.every((r) => r.saturated) ? spread(runs.map((r) => r.saturated!.deliveriesPerSecond)) : null,
  }));
  const relay = results.filter((r) => r.case === RELAY);
  const two = results.filter((r) => r.case === TWO);
  const twoHttp = results.filter((r) => r.case === TWO_HTTP);
  const ratios = two.flatMap((t) => {
    const ref = relay.find((r) => r.round === t.round);
    return ref?.saturated && t.saturated ? [t.saturated.deliveriesPerSecond / ref.saturated.deliveriesPerSecond] : [];
  });
  // The server's CPU a message at the ceiling, sends on the socket ÷ sends by POST, same round.
  const cpuRatios = two.flatMap((t) => {
    const ref = twoHttp.find((r) => r.round === t.round)?.saturatedServerCpuMsPerMessage;
    const own = t.saturatedServerCpuMsPerMessage;
    return ref && own ? [own / ref] : [];
  });
  const cpu = (runs: CaseResult[]) =>
    runs.every((r) => r.saturatedServerCpuMsPerMessage !== null)
      ? spread(runs.map((r) => r.saturatedServerCpuMsPerMessage ?? 0))
      : null;
  return {
    cases,
    twoToRelayDeliveries: ratios.length ? spread(ratios) : null,
    serverCpuAtCeiling: { socket: cpu(two), http: cpu(twoHttp) },
    socketToHttpServerCpu: cpuRatios.length ? spread(cpuRatios) : null,
  };
}

async function main(): Promise<void> {
  const run = startRun();
  if (!Number.isInteger(SATURATION) || SATURATION < 0) throw new Error('BENCH_SATURATION must be an integer ≥ 0');
  const perUser = Math.ceil((WARMUP + MESSAGES + SATURATION) / CLIENTS);
  if (CLIENTS % 2) throw new Error('BENCH_CLIENTS must be even (pairs)');
  if (perUser >= RATE_LIMITS.message_send.points) {
    throw new Error(
      `${perUser} messages per user per case would hit message_send (${RATE_LIMITS.message_send.points}/h): more clients or fewer messages`,
    );
  }
  process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  const jwtSecret = randomBytes(32).toString('base64url');
  const { url, drop } = await createPostgresDatabase();
  const redisPrefix = `moodmap:bench:${process.pid}:${randomBytes(3).toString('hex')}:`;
  const results: CaseResult[] = [];
  let database: Database | null = null;
  try {
    database = await openDatabase({ databaseUrl: url, poolSize: 4 });
    const t = performance.now();
    const users = await seedUsers(database, CLIENTS, jwtSecret);
    console.log(
      `${CLIENTS} users, profiles and sessions seeded, tokens signed in ${round((performance.now() - t) / 1000, 2)} s`,
    );
    // Each case starts from no conversation, no message and fresh rate-limit counters (a table
    // in PostgreSQL, or keys under a prefix of the case's own in Redis).
    let cases = 0;
    const appEnv = () => ({
      BENCH_SERVER: 'app',
      BENCH_DATABASE_URL: url,
      BENCH_JWT_SECRET: jwtSecret,
      BENCH_REDIS_URL: REDIS_URL,
      BENCH_REDIS_PREFIX: `${redisPrefix}${++cases}:`,
    });
    const clean = () => database!.db.execute(sql`truncate conversations, rate_limits cascade`);

    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round} of ${ROUNDS} · load ${loadLine()}`);
      if (CASES.has('relay')) {
        results.push(inRound(round, await runCase(RELAY, 'socket', [{ BENCH_SERVER: 'relay' }], users, null)));
      }

      if (CASES.has('one')) {
        await clean();
        results.push(inRound(round, await runCase('one instance (PostgreSQL)', 'socket', [appEnv()], users, database)));
      }

      for (const [key, name, transport] of [
        ['two', TWO, 'socket'],
        ['two-http', TWO_HTTP, 'http'],
      ] as const) {
        if (!CASES.has(key)) continue;
        await clean();
        const env = appEnv();
        results.push(inRound(round, await runCase(name, transport, [env, env], users, database)));
      }
    }
  } finally {
    closeClients();
    await database?.close();
    await drop();
    if (REDIS_URL) await dropRedisKeys(REDIS_URL, redisPrefix);
  }

  console.table(
    results.map((r) => ({
      round: r.round,
      case: r.case,
      clients: r.clients,
      messages: r.paced.sent,
      'rate /s': r.paced.sendRate,
      'deliveries/s': r.paced.deliveriesPerSecond,
      'p50 ms': r.paced.p50,
      'p95 ms': r.paced.p95,
      'p99 ms': r.paced.p99,
      'max ms': r.paced.max,
      errors: r.paced.errors + (r.saturated?.errors ?? 0),
      [`max deliveries/s (${CONCURRENCY} in flight)`]: r.saturated?.deliveriesPerSecond ?? '-',
      'server CPU ms/msg': r.serverCpuMsPerMessage,
      'PG CPU ms/msg': r.postgresCpuMsPerMessage ?? '-',
      'server CPU ms/msg at max': r.saturatedServerCpuMsPerMessage ?? '-',
    })),
  );
  const summary = summarise(results);
  console.log(`\nOver ${ROUNDS} rounds, median (min–max):`);
  console.table(
    summary.cases.map((c) => ({
      case: c.case,
      'p50 ms': formatSpread(c.p50),
      'p99 ms': formatSpread(c.p99),
      'max deliveries/s': c.maxDeliveries ? formatSpread(c.maxDeliveries) : '-',
    })),
  );
  if (summary.twoToRelayDeliveries)
    console.log(
      `max deliveries/s, two instances ÷ bare relay (same round): ${formatSpread(summary.twoToRelayDeliveries)}`,
    );
  if (summary.socketToHttpServerCpu)
    console.log(
      `server CPU a message at the ceiling, socket ÷ POST (same round): ${formatSpread(summary.socketToHttpServerCpu)}`,
    );
  writeResults(RESULTS, run, {
    rounds: ROUNDS,
    summary,
    loadAverageAtEnd: loadLine(),
    clients: CLIENTS,
    messages: MESSAGES,
    warmup: WARMUP,
    rate: RATE,
    waveMs: WAVE_MS,
    saturationMessages: SATURATION,
    saturationConcurrency: CONCURRENCY,
    rateLimitStore: REDIS_URL ? 'redis' : 'postgres',
    latency: 'send issued → recipient socket receives message.created with that id (ms)',
    phases: {
      paced: `${MESSAGES} messages at ${RATE}/s in waves every ${WAVE_MS} ms (open loop), after ${WARMUP} warm-up messages`,
      saturated: `${SATURATION} messages with ${CONCURRENCY} sends in flight (closed loop): the ceiling on this machine`,
    },
    results,
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
