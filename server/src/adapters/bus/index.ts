/**
 * Picks the bus: Redis pub/sub when BUS_URL names a Redis server, LISTEN/NOTIFY on PostgreSQL
 * (events cross instances), in-process on PGlite. Instances announce themselves on it
 * (presence.ts), so one that sees others without REDIS_URL warns: their rate-limit and cost
 * counters then all write to PostgreSQL.
 */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createInProcessBus } from './in-process.ts';
import { createPostgresBus } from './postgres.ts';
import { announceInstances } from './presence.ts';
import { createRedisBus } from './redis.ts';
import type { EventBus } from './types.ts';

export interface BusLog {
  warn(message: string): void;
}

export interface BusOptions {
  /** Tests shorten the instances' announcements; production keeps the default. */
  presenceEveryMs?: number;
}

async function engineBus(config: Config, database: Database): Promise<EventBus> {
  if (config.busUrl) return createRedisBus(config.busUrl, { channel: config.busChannel });
  if (database.engine === 'postgres' && database.pool && database.connectionString) {
    return createPostgresBus(database.connectionString, database.pool);
  }
  return createInProcessBus();
}

export async function createBus(
  config: Config,
  database: Database,
  log: BusLog,
  options: BusOptions = {},
): Promise<EventBus> {
  let warned = false;
  return announceInstances(await engineBus(config, database), {
    everyMs: options.presenceEveryMs,
    onCount(count) {
      if (count < 2 || config.redisUrl || warned) return;
      warned = true;
      log.warn(
        `${count} instances partagent ce bus sans REDIS_URL : limites de débit et compteurs de coûts s'écrivent dans PostgreSQL à chaque requête. Définissez REDIS_URL.`,
      );
    },
  });
}

export type { EventBus, RealtimeEvent } from './types.ts';
