/** Builds the real app in-process on a fresh database of the given engine. */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { testConfig, type Config } from '../../src/config.ts';
import type { Database, DbEngine } from '../../src/db/client.ts';
import { createTestDatabase } from './databases.ts';
import { geoFixture } from './geo-fixture.ts';
import type { GeoEngine } from '../../src/modules/geo/geo-engine.ts';

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
  /** The geo engine: the small fixture unless the test is about geo (geo-fixture.ts). */
  { geo = geoFixture() }: { geo?: GeoEngine } = {},
): Promise<TestApp> {
  const database = await createTestDatabase(engine);
  const config = testConfig(overrides);
  const app = await buildApp(config, { database, geo });
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
