/**
 * The configuration every bench gives an app instance it measures, read from the environment its
 * parent sets: the deployed log level, the run's database, one JWT secret for all instances (as a
 * deployment must have), and clients told apart by X-Forwarded-For (each bench user has an
 * address of its own, so per-address limits count per user).
 */
import { loadConfig, testConfig } from '../../server/src/config.ts';
import type { Config } from '../../server/src/config.ts';

export function benchAppConfig(overrides: Partial<Config> = {}): Config {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) throw new Error('BENCH_DATABASE_URL is not set');
  return testConfig({
    // The default level (a line per request), as deployed; the bench sends stdout to /dev/null.
    logLevel: loadConfig({}).logLevel,
    databaseUrl,
    jwtSecret: process.env.BENCH_JWT_SECRET,
    trustProxy: true,
    // Behind a proxy every client shares the proxy's address: no per-address ceiling, as
    // loadConfig does for TRUST_PROXY (thousands of clients from one address would get 503).
    maxConnectionsPerIp: 0,
    redisUrl: process.env.BENCH_REDIS_URL || undefined,
    redisPrefix: process.env.BENCH_REDIS_PREFIX ?? 'moodmap:bench:',
    ...overrides,
  });
}
