/**
 * The tile bench's server process: the real app (buildApp, PGlite in memory, no posts) with
 * logs at the default level, after prepareGeoAssets as main.ts does it; it reports how long that
 * preparation took and the process's memory after it. Messages: 'reset' / 'stats', 'close'.
 */
import { buildApp } from '../../server/src/app.ts';
import { loadConfig, testConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import { prepareGeoAssets } from '../../server/src/modules/geo/routes.ts';
import { answerParent, sendToParent } from '../support/child.ts';

const started = performance.now();
prepareGeoAssets();
const prepareMs = performance.now() - started;
// After a collection, what the prepared data holds (the source files' parsed JSON is garbage by now).
globalThis.gc?.();
const { rss, heapUsed } = process.memoryUsage();

const database = await openDatabase({ dataDir: null });
const app = await buildApp(testConfig({ logLevel: loadConfig({}).logLevel }), { database });
await app.listen({ host: '127.0.0.1', port: 0 });
answerParent({
  close: async () => {
    await app.close();
    await database.close();
  },
});
sendToParent({
  type: 'listening',
  port: (app.server.address() as { port: number }).port,
  prepareMs,
  rssMb: rss / 1e6,
  heapMb: heapUsed / 1e6,
});
