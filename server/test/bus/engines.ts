/**
 * The bus engines the shared suite (bus.test.ts) runs against: the in-process bus always, the
 * PostgreSQL bus with TEST_DATABASE_URL, the Redis bus with REDIS_URL. Each builds an instance's
 * bus, and the remote ones can break their listening links the way their server does (a
 * terminated backend, CLIENT KILL) or route them through a proxy a test cuts or silences.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createInProcessBus } from '../../src/adapters/bus/in-process.ts';
import { createPostgresBus } from '../../src/adapters/bus/postgres.ts';
import { createRedisBus } from '../../src/adapters/bus/redis.ts';
import type { EventBus } from '../../src/adapters/bus/types.ts';
import type { Database } from '../../src/db/client.ts';
import { createTestDatabase, engines } from '../helpers/databases.ts';
import { terminateBackends } from '../helpers/db-faults.ts';

export interface BusOptions {
  /** Reaches the server at this URL (a proxy's) instead of its own; both links, on every engine. */
  serverUrl?: string;
  checkIntervalMs?: number;
}

/** A bus engine whose instances reach one another through a server. */
export interface RemoteEngine {
  name: 'postgres' | 'redis';
  /** The server's URL, for a proxy in front of it. */
  serverUrl(): string;
  bus(options?: BusOptions): Promise<EventBus>;
  /** Ends every listening connection of this suite from the server's side; resolves once they are gone. */
  killListeners(): Promise<number>;
  /** How many listening connections of this suite the server holds. */
  listeners(): Promise<number>;
  setup(): Promise<void>;
  teardown(): Promise<void>;
}

export interface LocalEngine {
  name: 'in-process';
  bus(): Promise<EventBus>;
  setup(): Promise<void>;
  teardown(): Promise<void>;
}

export type BusEngine = LocalEngine | RemoteEngine;

function postgresEngine(): RemoteEngine {
  let database: Database | undefined;
  const pools: pg.Pool[] = [];
  const url = () => {
    if (!database?.connectionString) throw new Error('the PostgreSQL engine is set up in beforeAll');
    return database.connectionString;
  };
  return {
    name: 'postgres',
    serverUrl: url,
    async bus({ serverUrl, checkIntervalMs } = {}) {
      // Publishes go through a pool of the same route, as an instance's queries would.
      const pool = new pg.Pool({ connectionString: serverUrl ?? url(), connectionTimeoutMillis: 2000 });
      pool.on('error', () => {});
      pools.push(pool);
      return createPostgresBus(serverUrl ?? url(), pool, { checkIntervalMs });
    },
    async killListeners() {
      return (await terminateBackends(url(), 'moodmap_bus')).length;
    },
    async listeners() {
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'moodmap_bus'`,
        );
        return rows[0]?.n ?? 0;
      } finally {
        await admin.end();
      }
    },
    async setup() {
      database = await createTestDatabase('postgres');
    },
    async teardown() {
      await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => {})));
      await database?.close();
    },
  };
}

function redisEngine(url: string): RemoteEngine {
  // A channel of this run only: other files and runs may share the Redis server.
  const channel = `moodmap-test:${process.pid}:${randomBytes(4).toString('hex')}:events`;
  const admin = new Redis(url, { lazyConnect: true });
  const listenerIds = async () => {
    const list = String(await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
    return list
      .split('\n')
      .filter((line) => line.includes(` name=moodmap_bus@${channel} `))
      .map((line) => /\bid=(\d+)/.exec(line)?.[1])
      .filter((id) => id !== undefined);
  };
  return {
    name: 'redis',
    serverUrl: () => url,
    bus: ({ serverUrl, checkIntervalMs } = {}) => createRedisBus(serverUrl ?? url, { channel, checkIntervalMs }),
    async killListeners() {
      const ids = await listenerIds();
      for (const id of ids) await admin.call('CLIENT', 'KILL', 'ID', id);
      // Killed clients are freed by Redis asynchronously: wait until none of them is listed.
      for (let round = 0; round < 500 && (await listenerIds()).some((id) => ids.includes(id)); round++)
        await new Promise((r) => setImmediate(r));
      return ids.length;
    },
    async listeners() {
      const [, count] = await admin.pubsub('NUMSUB', channel);
      return Number(count);
    },
    async setup() {
      await admin.connect();
    },
    async teardown() {
      await admin.quit();
    },
  };
}

const inProcessEngine: LocalEngine = {
  name: 'in-process',
  bus: async () => createInProcessBus(),
  setup: async () => {},
  teardown: async () => {},
};

/** Every engine this run can test. */
export function busEngines(): BusEngine[] {
  const redisUrl = process.env.REDIS_URL;
  return [
    inProcessEngine,
    ...(engines.includes('postgres') ? [postgresEngine()] : []),
    ...(redisUrl ? [redisEngine(redisUrl)] : []),
  ];
}
