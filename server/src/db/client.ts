/**
 * Opens the database: embedded PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is
 * set. Both get the same Drizzle schema and the same SQL migrations, applied at start-up.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';

/** Both drivers answer raw `execute` with `{ rows }`; typing it spares casts at every call. */
interface QueryResultHKT extends PgQueryResultHKT {
  readonly type: { rows: Array<Record<string, unknown>> };
}
// A transaction (PgTransaction) is a PgDatabase too: what takes a Db runs inside one as well.
export type Db = PgDatabase<QueryResultHKT, typeof schema>;
export type DbEngine = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  engine: DbEngine;
  /** The pg pool when on PostgreSQL; LISTEN/NOTIFY opens its own connection from the URL. */
  pool?: pg.Pool;
  connectionString?: string;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… — PostgreSQL; otherwise PGlite in `dataDir` (or in memory when dataDir is null). */
  databaseUrl?: string;
  dataDir?: string | null;
  /** PGlite: a dumped data directory to start from instead of an empty one (the tests' migrated copy). */
  snapshot?: Blob;
  poolSize?: number;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : openPglite(options.dataDir ?? null, options.snapshot);
}

// PostgreSQL's 128 MB of shared buffers would sit inside this process; the kernel already
// caches the data files PGlite reads, so a small pool keeps an idle server small.
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

async function openPglite(dataDir: string | null, snapshot?: Blob): Promise<Database> {
  let dir: string | undefined;
  if (dataDir) {
    dir = path.join(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
  }
  const made = dir !== undefined && !existsSync(path.join(dir, 'PG_VERSION'));
  let client = await PGlite.create({ dataDir: dir, loadDataDir: snapshot, startParams: PGLITE_START_PARAMS });
  await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
  if (made) {
    // Creating a database (initdb, then every migration) grows the engine's WebAssembly memory,
    // which is never given back: a fresh instance on the files made serves at the size of a restart.
    await client.close();
    client = await PGlite.create({ dataDir: dir, startParams: PGLITE_START_PARAMS });
  }
  const db: Db = drizzlePglite({ client, schema });
  const opened = client;
  return {
    db,
    engine: 'pglite',
    ping: () => ping(db),
    close: async () => {
      if (!opened.closed) await opened.close();
    },
  };
}

/** How long a request waits for a connection before it fails (a 503) while PostgreSQL is away. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * A pg pool that survives dropped connections (pg_terminate_backend, a restart, a failover).
 *
 * pg-pool listens for a client's `error` only while the client is idle; a client checked out by
 * a transaction that loses its connection emits `error` with no listener, which ends the
 * process. So every client keeps a listener for its whole life, and a checked-out client that
 * fails is handed back to the pool at once as broken (`release(err)` closes and drops it).
 * That also covers drizzle's transactions, which never release the client when `begin` fails
 * (drizzle-orm 0.45, node-postgres session): without it each such failure would leak one
 * connection until the pool is empty for good. Their own later `release()` is then a no-op.
 */
class ResilientPool extends pg.Pool {
  constructor(config: pg.PoolConfig) {
    super(config);
    // The query that failed already reports the error to its caller; nothing else to do.
    this.on('connect', (client) => client.on('error', () => {}));
    // An idle client's failure: the pool has already dropped it and opens another on demand.
    this.on('error', () => {});
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    // pool.query checks out with a callback and already releases a failed client itself.
    if (callback) return super.connect(callback);
    return super.connect().then(releaseWhenBroken);
  }
}

function releaseWhenBroken(client: pg.PoolClient): pg.PoolClient {
  const release = client.release.bind(client);
  let released = false;
  const onError = (error: Error) => client.release(error);
  client.release = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    client.removeListener('error', onError);
    release(error);
  };
  client.on('error', onError);
  return client;
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const pool = new ResilientPool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Lets the kernel notice a peer that vanished without closing (a failover, a cut link).
    keepAlive: true,
    application_name: 'moodmap',
  });
  const nodePg = drizzlePg({ client: pool, schema });
  await migratePg(nodePg, { migrationsFolder });
  const db: Db = nodePg;
  let closed = false;
  return {
    db,
    engine: 'postgres',
    pool,
    connectionString: url,
    ping: () => ping(db),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
