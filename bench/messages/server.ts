/**
 * One server process of the messages bench, started by messages.bench.ts with an IPC channel:
 * BENCH_SERVER=relay → the bare baseline (relay.ts); BENCH_SERVER=app → the real MoodMap app
 * (buildApp) on BENCH_DATABASE_URL, so its bus is LISTEN/NOTIFY and its rate-limit counters
 * live in PostgreSQL (or in Redis with BENCH_REDIS_URL), as on a deployment. Each instance is
 * its own process, like instances behind a load balancer. It reports { port } once listening,
 * answers 'stats' with its CPU time and event-loop delay, and exits cleanly on 'close'.
 */
import { buildApp } from '../../server/src/app.ts';
import { loadConfig, testConfig } from '../../server/src/config.ts';
import { answerParent, sendToParent } from '../support/child.ts';
import { startRelay } from './relay.ts';

const send = sendToParent;

async function start(): Promise<{ port: number; close: () => Promise<void> }> {
  if (process.env.BENCH_SERVER === 'relay') return startRelay();
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) throw new Error('BENCH_DATABASE_URL is not set');
  const app = await buildApp(
    testConfig({
      // The default level (a line per request), as deployed; the bench sends stdout to /dev/null.
      logLevel: loadConfig({}).logLevel,
      databaseUrl,
      // Every instance signs and verifies with the same secret, as a deployment must.
      jwtSecret: process.env.BENCH_JWT_SECRET,
      // The bench gives each user its own X-Forwarded-For, so per-IP limits count per user.
      trustProxy: true,
      // Behind a proxy every client shares the proxy's address: no per-address ceiling, as
      // loadConfig does for TRUST_PROXY (1 000 clients from one address would get 503).
      maxConnectionsPerIp: 0,
      redisUrl: process.env.BENCH_REDIS_URL || undefined,
      redisPrefix: process.env.BENCH_REDIS_PREFIX ?? 'moodmap:bench:',
    }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { port: (app.server.address() as { port: number }).port, close: () => app.close() };
}

const server = await start();
answerParent({ close: () => server.close() });
send({ type: 'listening', port: server.port });
