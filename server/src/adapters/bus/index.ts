/** Picks the bus: LISTEN/NOTIFY on PostgreSQL (events cross instances), in-process on PGlite. */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createInProcessBus } from './in-process.ts';
import { createPostgresBus } from './postgres.ts';
import type { EventBus } from './types.ts';

export async function createBus(config: Config, database: Database): Promise<EventBus> {
  if (database.engine === 'postgres' && database.pool && database.connectionString) {
    return createPostgresBus(database.connectionString, database.pool);
  }
  return createInProcessBus();
}

export type { EventBus, RealtimeEvent } from './types.ts';
