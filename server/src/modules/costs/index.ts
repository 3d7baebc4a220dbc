/** The cost monitor behind the configuration: counters in Redis when REDIS_URL is set, else in the database. */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { LogSecurityEvent } from '../security/log.ts';
import { createRedisCounterStore, createSqlCounterStore } from './counters.ts';
import { createCostMonitor, type CostMonitor } from './monitor.ts';

export type { CostMonitor } from './monitor.ts';

export function createCosts(config: Config, database: Database, now: () => Date, logSecurityEvent: LogSecurityEvent, log: FastifyBaseLogger): CostMonitor {
  const store = config.redisUrl ? createRedisCounterStore(config.redisUrl, config.redisPrefix) : createSqlCounterStore(database.db);
  return createCostMonitor({
    db: database.db,
    store,
    now,
    logSecurityEvent,
    unitPrices: config.costUnitPrices,
    timers: config.env !== 'test',
    onError: (err) => log.warn({ err }, 'cost monitor'),
  });
}
