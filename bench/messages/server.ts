/**
 * One server process of the messages bench, started by messages.bench.ts with an IPC channel:
 * BENCH_SERVER=relay → the bare baseline (relay.ts); BENCH_SERVER=app → the real MoodMap app
 * (buildApp) on BENCH_DATABASE_URL, so its bus is LISTEN/NOTIFY and its rate-limit counters
 * live in PostgreSQL (or in Redis with BENCH_REDIS_URL), as on a deployment. Each instance is
 * its own process, like instances behind a load balancer. It reports { port } once listening,
 * answers 'stats' with its CPU time and event-loop delay, and exits cleanly on 'close'.
 */
import { buildApp } from '../../server/src/app.ts';
import { benchAppConfig } from '../support/bench-app-config.ts';
import { answerParent, sendToParent } from '../support/child.ts';
import { startRelay } from './relay.ts';

const send = sendToParent;

async function start(): Promise<{ port: number; close: () => Promise<void> }> {
  if (process.env.BENCH_SERVER === 'relay') return startRelay();
  const app = await buildApp(benchAppConfig());
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { port: (app.server.address() as { port: number }).port, close: () => app.close() };
}

const server = await start();
answerParent({ close: () => server.close() });
send({ type: 'listening', port: server.port });
