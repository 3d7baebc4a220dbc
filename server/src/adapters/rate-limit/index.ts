/** Picks the counters' home: Redis when REDIS_URL is set, otherwise the database. */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createRedisRateLimitStore } from './redis-store.ts';
import { createSqlRateLimitStore } from './sql-store.ts';
import type { RateLimitStore } from './store.ts';

export function createRateLimitStore(config: Config, database: Database): RateLimitStore {
  return config.redisUrl
    ? createRedisRateLimitStore({ url: config.redisUrl, prefix: config.redisPrefix })
    : createSqlRateLimitStore(database.db);
}

export { createRateLimiter, type RateLimiter, type LimitAction } from './limiter.ts';
export type { RateLimitStore, RateLimitRule, HitResult } from './store.ts';
