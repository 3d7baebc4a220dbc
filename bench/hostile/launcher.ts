/**
 * The server process of the hostile bench, started by hostile.bench.ts with an IPC channel: the
 * real app (buildApp) on an in-memory PGlite, or on BENCH_DATABASE_URL (PostgreSQL), with the
 * fuzz suite's world (two members, posts, a conversation). It measures its own event loop with
 * `monitorEventLoopDelay`, since a request that blocks the loop shows there and nowhere else.
 *
 * Messages: → { type: 'listening', port, routes, ids, token }; 'reset' starts a measurement,
 * 'stats' answers { loopMaxMs, loopP99Ms, loopMeanMs, cpuMs }; 'token' answers { token } of a live
 * session; 'close' shuts down.
 */
import { buildApp } from '../../server/src/app.ts';
import { prepareGeoAssets } from '../../server/src/modules/geo/routes.ts';
import { testConfig } from '../../server/src/config.ts';
import { createWorld } from '../../server/test/fuzz/fixtures.ts';
import { listRoutes } from '../../server/test/fuzz/route-list.ts';
import { createClock } from '../../server/test/helpers/auth.ts';
import { answerParent, sendToParent } from '../support/child.ts';

const send = sendToParent;

const config = testConfig({
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  // Each request names its client in X-Forwarded-For, so per-IP limits count per fuzzed client.
  trustProxy: true,
});
const app = await buildApp(config);
await app.ready();
const world = await createWorld({
  app,
  database: app.ctx.database,
  config,
  clock: createClock(),
  close: () => app.close(),
});
// As main.ts does before it listens.
prepareGeoAssets();
await app.listen({ host: '127.0.0.1', port: 0 });

// 1 ms resolution: the 50 ms goal needs a finer measure than the 10 ms default.
answerParent({
  resolutionMs: 1,
  close: () => app.close(),
  extra: async (type) => {
    if (type !== 'token') return;
    // A fuzzed request may have ended the session (a valid password change): a fresh one.
    await world.ensureSignedIn();
    send({ type: 'token', token: world.token() });
  },
});

send({
  type: 'listening',
  port: (app.server.address() as { port: number }).port,
  routes: listRoutes(app),
  ids: world.ids,
  token: world.token(),
});
