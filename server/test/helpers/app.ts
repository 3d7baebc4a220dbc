/** Builds the real app in-process on a fresh database of the given engine. */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { testConfig, type Config } from '../../src/config.ts';
import type { Database, DbEngine } from '../../src/db/client.ts';
import { createTestDatabase } from './databases.ts';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

export async function createTestApp(
  engine: DbEngine,
  overrides: Partial<Config> = {},
  /** Adds test-only routes before the app is sealed. */
  setup?: (app: FastifyInstance) => void,
): Promise<TestApp> {
  const database = await createTestDatabase(engine);
  const config = testConfig(overrides);
  const app = await buildApp(config, { database });
  setup?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
