/**
 * One server process of the messages bench, started by messages.bench.ts with an IPC channel:
 * BENCH_SERVER=relay → the bare baseline (relay.ts); BENCH_SERVER=app → the real MoodMap app
 * (buildApp) on BENCH_DATABASE_URL, so its bus is LISTEN/NOTIFY and its rate-limit counters
 * live in PostgreSQL (or in Redis with BENCH_REDIS_URL), as on a deployment. Each instance is
 * its own process, like instances behind a load balancer. It reports { port } once listening,
 * answers 'stats' with its CPU time and event-loop delay, and exits cleanly on 'close'.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../../server/src/app.ts';
import { testConfig } from '../../server/src/config.ts';
import { startRelay } from './relay.ts';

const send = (message: unknown) => process.send?.(message);

async function start(): Promise<{ port: number; close: () => Promise<void> }> {
  if (process.env.BENCH_SERVER === 'relay') return startRelay();
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) throw new Error('BENCH_DATABASE_URL is not set');
  const app = await buildApp(testConfig({
    databaseUrl,
    // Every instance signs and verifies with the same secret, as a deployment must.
    jwtSecret: process.env.BENCH_JWT_SECRET,
    // The bench gives each user its own X-Forwarded-For, so per-IP limits count per user.
    trustProxy: true,
    redisUrl: process.env.BENCH_REDIS_URL || undefined,
    redisPrefix: process.env.BENCH_REDIS_PREFIX ?? 'moodmap:bench:',
  }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { port: (app.server.address() as { port: number }).port, close: () => app.close() };
}

const server = await start();
const delay = monitorEventLoopDelay({ resolution: 10 });
let cpuFrom = process.cpuUsage();
process.on('message', async (message: string) => {
  if (message === 'reset') {
    cpuFrom = process.cpuUsage();
    delay.reset();
    delay.enable();
    send({ type: 'reset' });
  } else if (message === 'stats') {
    const cpu = process.cpuUsage(cpuFrom);
    send({ type: 'stats', cpuMs: (cpu.user + cpu.system) / 1000, loopDelayP99Ms: delay.percentile(99) / 1e6, loopDelayMaxMs: delay.max / 1e6 });
  } else if (message === 'close') {
    await shutdown();
    send({ type: 'closed' });
    process.disconnect();
  }
});
let closing: Promise<void> | null = null;
function shutdown(): Promise<void> {
  closing ??= (async () => {
    delay.disable();
    await server.close();
  })();
  return closing;
}
// The parent vanished (crash, Ctrl-C): nothing must keep the port or the database.
process.on('disconnect', () => {
  void shutdown().finally(() => process.exit(0));
});
send({ type: 'listening', port: server.port });
