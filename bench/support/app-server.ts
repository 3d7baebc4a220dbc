/**
 * One MoodMap server process for the feed, realtime and browser benches (forked by
 * server-process.ts): the real app (buildApp) with logs at the default level, on PGlite in
 * memory (BENCH_ENGINE=pglite) or on BENCH_DATABASE_URL, seeded with BENCH_POSTS live posts
 * after the migrations (seed.ts). BENCH_JWT_SECRET lets the bench sign access tokens;
 * BENCH_WEB_DIST serves the built web app.
 * On PostgreSQL it also times every SQL statement about publications the app sends (a wrapper
 * on pg's Client.query), so a bench can read the viewport query's own time next to the HTTP one,
 * whatever the feed code looks like: 'sql-capture' starts a fresh capture, 'sql-replay' runs each
 * captured statement again BENCH_SQL_REPEAT times (default 20) and answers every timing.
 * Messages: 'reset' / 'stats' (CPU time, event-loop delay), 'close'.
 */
import pg from 'pg';
import { buildApp } from '../../server/src/app.ts';
import { prepareGeoAssets } from '../../server/src/modules/geo/routes.ts';
import { loadConfig, testConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import { answerParent, sendToParent } from './child.ts';
import { seedLivePosts } from './seed.ts';

const send = sendToParent;

interface Captured {
  text: string;
  values: unknown[];
  ms: number;
}
let capture: Captured[] | null = null;

// Timing wrapper: only statements reading publications (the viewport's), captured on demand.
// pg-pool calls `client.query(text, values, callback)`: the callback ends the timing then; a
// caller of the promise form ends it when the promise settles.
type QueryFn = (this: pg.Client, ...args: unknown[]) => unknown;
const originalQuery = pg.Client.prototype.query as unknown as QueryFn;
(pg.Client.prototype as unknown as { query: QueryFn }).query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
  const values = (Array.isArray(args[1]) ? args[1] : (first as { values?: unknown[] } | null)?.values) ?? [];
  if (!capture || !text || !/^\s*(select|with)\b/i.test(text) || !/\bpublications\b/.test(text))
    return originalQuery.apply(this, args);
  const list = capture;
  const start = performance.now();
  const done = () => list.push({ text, values, ms: performance.now() - start });
  const callback = args.at(-1);
  if (typeof callback === 'function') {
    args[args.length - 1] = function (this: unknown, ...result: unknown[]) {
      done();
      return callback.apply(this, result);
    };
    return originalQuery.apply(this, args);
  }
  const result = originalQuery.apply(this, args);
  if (result instanceof Promise) result.then(done, () => {});
  return result;
};

const engine = process.env.BENCH_ENGINE ?? 'pglite';
const databaseUrl = engine === 'postgres' ? process.env.BENCH_DATABASE_URL : undefined;
if (engine === 'postgres' && !databaseUrl) throw new Error('BENCH_DATABASE_URL is not set');
const database = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 10 } : { dataDir: null });
const posts = Number(process.env.BENCH_POSTS ?? 0);
let seedSeconds = 0;
if (posts > 0) {
  const t = performance.now();
  await seedLivePosts(database.db, posts);
  seedSeconds = (performance.now() - t) / 1000;
}
const app = await buildApp(
  testConfig({
    // The default level (info: a line per request), as deployed, not the tests' silence.
    logLevel: loadConfig({}).logLevel,
    databaseUrl,
    jwtSecret: process.env.BENCH_JWT_SECRET,
    trustProxy: true,
    webDist: process.env.BENCH_WEB_DIST || null,
  }),
  { database },
);
// As main.ts does: the tiles' indexes and the land index are built before listening, so the
// first tile a bench asks for does not pay their build, as no production request does.
prepareGeoAssets();
await app.listen({ host: '127.0.0.1', port: 0 });

answerParent({
  close: async () => {
    await app.close();
    await database.close();
  },
  extra: async (type) => {
    if (type === 'sql-capture') {
      capture = [];
      send({ type });
    } else if (type === 'sql-replay') {
      const first = capture ?? [];
      capture = null;
      const repeat = Number(process.env.BENCH_SQL_REPEAT ?? 20);
      const replays: Array<{ text: string; ms: number[] }> = [];
      for (const { text, values } of first) {
        if (!database.pool) break;
        const ms: number[] = [];
        for (let i = 0; i < repeat; i++) {
          const t = performance.now();
          await database.pool.query(text, values);
          ms.push(performance.now() - t);
        }
        replays.push({ text: text.slice(0, 200), ms });
      }
      send({ type, first: first.map((c) => ({ text: c.text.slice(0, 200), ms: c.ms })), replays });
    }
  },
});
send({
  type: 'listening',
  port: (app.server.address() as { port: number }).port,
  seedSeconds,
  engine: database.engine,
});
