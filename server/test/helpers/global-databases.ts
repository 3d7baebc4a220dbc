/**
 * Vitest globalSetup of the api tier: runs the migrations once per test run, on a PGlite whose
 * data directory is dumped to a temp file and on a PostgreSQL template database (when
 * TEST_DATABASE_URL is set). createTestDatabase starts every test database from them (the
 * environment variables below reach the test processes); the teardown drops what the run made.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../src/db/client.ts';
import {
  adminQuery,
  PGLITE_SNAPSHOT_ENV,
  POSTGRES_TEMPLATE_ENV,
  postgresUrl,
  TEST_DATABASE_PREFIX_ENV,
} from './databases.ts';

export default async function setup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-pglite-'));
  const run = randomBytes(4).toString('hex');
  const [snapshot, template] = await Promise.all([pgliteSnapshot(dir), postgresTemplate(run)]);
  process.env[PGLITE_SNAPSHOT_ENV] = snapshot;
  if (template) {
    process.env[POSTGRES_TEMPLATE_ENV] = template;
    process.env[TEST_DATABASE_PREFIX_ENV] = `moodmap_test_${run}`;
  }
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (template) await dropRunDatabases(run, template);
  };
}

async function pgliteSnapshot(dir: string): Promise<string> {
  // Migrated on disk by the app's own code, then reopened as is to dump its data directory.
  const dataDir = path.join(dir, 'data');
  await (await openDatabase({ dataDir })).close();
  const client = await PGlite.create(path.join(dataDir, 'pglite'));
  // Uncompressed: loading skips the gunzip, and the file lives only for this run.
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  rmSync(dataDir, { recursive: true, force: true });
  return file;
}

async function postgresTemplate(run: string): Promise<string | null> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return null;
  const name = `moodmap_tpl_${run}`;
  await adminQuery(base, `create database ${name}`);
  // Migrated, then closed: PostgreSQL copies a template only while nobody is connected to it.
  const database = await openDatabase({ databaseUrl: postgresUrl(base, name), poolSize: 1 });
  await database.close();
  return name;
}

/** The template and any test database of this run a crashed file left behind. */
async function dropRunDatabases(run: string, template: string): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [
      `moodmap_test_${run}_%`,
    ]);
    for (const name of [...rows.map((r) => r.datname), template])
      await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}
