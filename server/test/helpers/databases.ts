/**
 * Test databases: a fresh in-memory PGlite, and — when TEST_DATABASE_URL is set — a fresh
 * PostgreSQL database of its own (created here, dropped on close). API suites run on each
 * engine with `describe.each(engines)`.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database, type DbEngine } from '../../src/db/client.ts';

export const engines: DbEngine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export async function createTestDatabase(engine: DbEngine): Promise<Database> {
  if (engine === 'pglite') return openDatabase({ dataDir: null });
  const { url, drop } = await createPostgresDatabase();
  const database = await openDatabase({ databaseUrl: url, poolSize: 20 });
  return {
    ...database,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

/** Creates an empty PostgreSQL database next to TEST_DATABASE_URL's; `drop` removes it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `moodmap_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(base, `create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(base, `drop database if exists ${name} with (force)`),
  };
}

async function adminQuery(url: string, statement: string): Promise<void> {
  // Parallel test files may create databases at once; PostgreSQL can refuse while template1
  // is busy, so retry briefly.
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
