/**
 * The admin panel's lists at scale: 100 000 users and 1 000 000 security-log rows
 * (BENCH_USERS, BENCH_LOGS), seeded with generate_series in a PostgreSQL database of the run's
 * own (TEST_DATABASE_URL). The real app listens on a port in this process; each page is asked
 * BENCH_SAMPLES times over HTTP (keep-alive) by a super_admin, and its p95 printed:
 *   users: first page (with the total), a page 40 deep (cursor), a nickname prefix search;
 *   logs: first page (with the total), 40 deep, by severity, by event type.
 * Alternated with a bare `select 1` round trip on the same database (the reference), for
 * BENCH_ROUNDS rounds (default 3): median and spread of each p95 over the rounds, with the
 * machine's load before and after. Writes bench/results/admin.json.
 * Run: `TEST_DATABASE_URL=postgres://… npm run bench -- admin`.
 */
import pg from 'pg';
import { buildApp } from '../../server/src/app.ts';
import { testConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import { createPostgresDatabase } from '../../server/test/helpers/databases.ts';
import { createClock, createUser, login, type AuthTestApp } from '../../server/test/helpers/auth.ts';
import { envNumber } from '../support/env.ts';
import { resultsFile, startRun, writeResults } from '../support/results.ts';
import { formatSpread, loadLine, percentile, sig, spread } from '../support/stats.ts';

const RESULTS = resultsFile('admin.json');
const USERS = envNumber('BENCH_USERS', 100_000);
const LOGS = envNumber('BENCH_LOGS', 1_000_000);
const ROUNDS = envNumber('BENCH_ROUNDS', 3);
const SAMPLES = envNumber('BENCH_SAMPLES', 200);
const DEPTH = 40;

async function seed(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const started = performance.now();
  // Users spread over two years of sign-ups; nicknames 'membre<n>'; one in 50 staff.
  await client.query(
    `insert into users (id, email, password_hash, created_at)
    select md5('u' || g)::uuid, 'u' || g || '@bench.test', 'x', now() - (g || ' minutes')::interval * 10
    from generate_series(1, $1::int) g`,
    [USERS],
  );
  await client.query(
    `insert into profiles (id, username, created_at)
    select md5('u' || g)::uuid, 'membre' || g, now() - (g || ' minutes')::interval * 10 from generate_series(1, $1::int) g`,
    [USERS],
  );
  await client.query(
    `insert into staff_roles (user_id, role)
    select md5('u' || g)::uuid, 'moderator' from generate_series(50, $1::int, 50) g`,
    [USERS],
  );
  await client.query(
    `insert into security_logs (user_id, event_type, event_description, severity, created_at)
    select md5('u' || (1 + g % $2::int))::uuid,
      (array['login_failed','role_check','admin_access','post_reported','rate_limited','permission_denied'])[1 + g % 6],
      'Événement de test n°' || g,
      (array['low','low','low','medium','medium','high','critical'])[1 + g % 7],
      now() - (g || ' seconds')::interval
    from generate_series(1, $1::int) g`,
    [LOGS, USERS],
  );
  // As autovacuum leaves a table in production: visibility map set, so counts read the index only.
  await client.query('vacuum analyze');
  console.log(`seeded ${USERS} users and ${LOGS} log rows in ${Math.round((performance.now() - started) / 1000)} s`);
  await client.end();
}

async function timed(samples: number, run: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return times;
}

async function main() {
  if (!process.env.TEST_DATABASE_URL) {
    console.log('admin bench: TEST_DATABASE_URL is not set (the bench needs PostgreSQL); skipped');
    return;
  }
  const run = startRun();
  const { url, drop } = await createPostgresDatabase();
  const database = await openDatabase({ databaseUrl: url, poolSize: 10 });
  const app = await buildApp(testConfig({ databaseUrl: url }), { database, now: createClock().now });
  await app.ready();
  const t: AuthTestApp = { app, database, config: testConfig(), clock: createClock(), close: async () => {} };
  try {
    await seed(url);
    const admin = await createUser(t);
    const session = await login(t, admin.email, admin.password);
    const bare = new pg.Client({ connectionString: url });
    await bare.connect();
    await bare.query(`insert into staff_roles (user_id, role) values ($1, 'super_admin')`, [admin.id]);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${session.accessToken}` } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<{ nextCursor: string | null; total: number | null }>;
    };
    // The cursors of a page DEPTH pages deep, found once.
    const deep = async (path: string) => {
      let cursor: string | null = null;
      for (let i = 0; i < DEPTH; i++)
        cursor = (await get(`${path}${path.includes('?') ? '&' : '?'}${cursor ? `cursor=${cursor}` : ''}`)).nextCursor;
      return `${path}${path.includes('?') ? '&' : '?'}cursor=${cursor}`;
    };
    const pages: Record<string, string> = {
      'users, first page (+ total)': '/api/admin/users',
      [`users, page ${DEPTH}`]: await deep('/api/admin/users'),
      'users, search "membre123"': '/api/admin/users?q=membre123',
      'logs, first page (+ total)': '/api/admin/security-logs',
      [`logs, page ${DEPTH}`]: await deep('/api/admin/security-logs'),
      'logs, severity=critical (+ total)': '/api/admin/security-logs?severity=critical',
      'logs, eventType=admin_access (+ total)': '/api/admin/security-logs?eventType=admin_access',
    };
    const first = await get('/api/admin/users');
    console.log(`users total ${first.total}; logs total ${(await get('/api/admin/security-logs')).total}`);
    for (const path of Object.values(pages)) await timed(20, () => get(path).then(() => {})); // warm-up
    const p95s: Record<string, number[]> = { 'select 1 (reference)': [] };
    for (const name of Object.keys(pages)) p95s[name] = [];
    const loads: string[] = [loadLine()];
    for (let r = 0; r < ROUNDS; r++) {
      // A/B alternation: the reference, then every page, each round.
      p95s['select 1 (reference)']!.push(
        percentile(await timed(SAMPLES, () => bare.query('select 1').then(() => {})), 95),
      );
      for (const [name, path] of Object.entries(pages))
        p95s[name]!.push(percentile(await timed(SAMPLES, () => get(path).then(() => {})), 95));
      loads.push(loadLine());
    }
    await bare.end();
    console.log(
      `\nadmin lists at ${USERS} users / ${LOGS} log rows, PostgreSQL, ${SAMPLES} requests per page per round, ${ROUNDS} rounds`,
    );
    console.log(`load (1/5/15 min) before and after each round: ${loads.join(' | ')}`);
    console.log('page | p95 ms, median of rounds (min–max)');
    const figures: Record<string, unknown> = {};
    for (const [name, values] of Object.entries(p95s)) {
      const s = spread(values);
      console.log(`${name.padEnd(42)} | ${formatSpread(s, ' ms')}`);
      figures[name] = {
        p95Ms: { median: sig(s.median), min: sig(s.min), max: sig(s.max), rounds: s.rounds.map((v) => sig(v)) },
      };
    }
    writeResults(RESULTS, run, { users: USERS, logs: LOGS, samples: SAMPLES, rounds: ROUNDS, loads, pages: figures });
  } finally {
    await app.close();
    await database.close();
    await drop();
  }
}

await main();
