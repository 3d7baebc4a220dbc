/**
 * One server process of the crowd bench, forked with --expose-gc: BENCH_SERVER=relay → the
 * reference (relay.ts); BENCH_SERVER=app → the real app (buildApp) on BENCH_DATABASE_URL,
 * configured as every bench app is (support/bench-app-config.ts: shared JWT secret, trusted X-Forwarded-For, no
 * per-address connection ceiling, rate-limit counters in Redis when BENCH_REDIS_URL is given),
 * and its bus on Redis when BENCH_BUS_URL is given, else LISTEN/NOTIFY. Besides 'reset',
 * 'stats' and 'close' (support/child.ts) it answers 'memory' with its RSS and heap after a
 * full collection, so two readings differ by what is still held, not by garbage.
 */
import { answerParent, sendToParent } from '../support/child.ts';
import { startCrowdRelay } from './relay.ts';

async function startApp(): Promise<{ port: number; close: () => Promise<void> }> {
  // Imported here: the relay's process must not load (and hold in memory) the app's modules.
  const { buildApp } = await import('../../server/src/app.ts');
  const { benchAppConfig } = await import('../support/bench-app-config.ts');
  const app = await buildApp(
    benchAppConfig({
      busUrl: process.env.BENCH_BUS_URL || undefined,
      // Redis pub/sub channels ignore key prefixes: the run's own channel, so nothing else hears it.
      busChannel: process.env.BENCH_BUS_CHANNEL ?? 'moodmap:bench:bus',
    }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { port: (app.server.address() as { port: number }).port, close: () => app.close() };
}

/** RSS, and what V8 holds: the heap in use, the heap reserved, and memory outside it (buffers). */
function memory() {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external };
}

const queries = process.env.BENCH_COUNT_QUERIES === '1' ? await import('./query-count.ts') : null;
const server = process.env.BENCH_SERVER === 'relay' ? await startCrowdRelay() : await startApp();
answerParent({
  close: () => server.close(),
  extra: (type) => {
    if (type === 'memory') sendToParent({ type, ...memory() });
    if (type === 'queries') sendToParent({ type, top: queries?.topQueries() ?? [] });
    if (type === 'reset-queries') {
      queries?.resetQueries();
      sendToParent({ type });
    }
  },
});
sendToParent({ type: 'listening', port: server.port });
