/**
 * Test databases: an in-memory PGlite, and — when TEST_DATABASE_URL is set — a PostgreSQL
 * database of its own (created here, dropped on close). Under the api tier's globalSetup
 * (global-databases.ts) both start as a copy of one database migrated once per run: PGlite
 * loads its dumped data directory, PostgreSQL copies its template. Without it (a lone script),
 * each is built and migrated afresh. API suites run on each engine with `describe.each(engines)`.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { openDatabase, type Database, type DbEngine } from '../../src/db/client.ts';

export const engines: DbEngine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** Set by the globalSetup for the test processes: the migrated PGlite dump, the PostgreSQL template. */
export const PGLITE_SNAPSHOT_ENV = 'MOODMAP_TEST_PGLITE_SNAPSHOT';
export const POSTGRES_TEMPLATE_ENV = 'MOODMAP_TEST_POSTGRES_TEMPLATE';
/** The names of this run's test databases start with it, so the teardown finds those left behind. */
export const TEST_DATABASE_PREFIX_ENV = 'MOODMAP_TEST_DATABASE_PREFIX';

let snapshot: Promise<Blob> | undefined;

/** The migrated data directory, read once per test process. */
function pgliteSnapshot(): Promise<Blob> | undefined {
  const file = process.env[PGLITE_SNAPSHOT_ENV];
  if (!file) return undefined;
  snapshot ??= readFile(file).then((bytes) => new Blob([bytes]));
  return snapshot;
}

export async function createTestDatabase(engine: DbEngine): Promise<Database> {
  if (engine === 'pglite') return openDatabase({ dataDir: null, snapshot: await pgliteSnapshot() });
  const { url, drop } = await createPostgresDatabase(process.env[POSTGRES_TEMPLATE_ENV]);
  const database = await openDatabase({ databaseUrl: url, poolSize: 20 });
  return {
    ...database,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

/**
 * Creates a PostgreSQL database next to TEST_DATABASE_URL's, empty or as a copy of `template`;
 * `drop` removes it.
 */
export async function createPostgresDatabase(template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const prefix = process.env[TEST_DATABASE_PREFIX_ENV] ?? 'moodmap_test';
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(base, template ? `create database ${name} template ${template}` : `create database ${name}`);
  return {
    url: postgresUrl(base, name),
    drop: () => adminQuery(base, `drop database if exists ${name} with (force)`),
  };
}

/** `base` pointing at database `name`. */
export function postgresUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(url: string, statement: string): Promise<void> {
  // Parallel test files may create databases at once; PostgreSQL can refuse while their
  // template is busy, so retry briefly.
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query(statement);
      return;
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    } finally {
      await client.end().catch(() => {});
    }
  }
}
