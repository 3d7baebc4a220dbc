/**
 * The app a `describe` block's tests share: built by the block's beforeAll on a fresh database
 * (allow a minute: PostgreSQL creates one), closed by its afterAll. Called in the block's body,
 * these return at once an object whose fields read what the hook built, so a suite writes
 * `const t = suiteAuthApp(engine)` instead of declaring `t` and writing both hooks.
 * Read the fields only inside hooks and tests.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import type { DbEngine } from '../../src/db/client.ts';
import { createTestApp, type TestApp } from './app.ts';
import { createAuthTestApp, type AuthTestApp } from './auth.ts';
import { listen } from './ws.ts';
import type { GeoEngine } from '../../src/modules/geo/geo-engine.ts';

/** The geo engine of a suite's app: the small fixture unless given (geo-fixture.ts). */
export interface GeoOption {
  geo?: GeoEngine;
}

/** Builds a value in beforeAll and closes it in afterAll; returns its reader. */
function perSuite<T>(build: () => Promise<T>, close: (built: T) => Promise<void>): () => T {
  let built: T | undefined;
  beforeAll(async () => {
    built = await build();
  }, 60_000);
  afterAll(async () => {
    if (built !== undefined) await close(built);
  });
  return () => {
    if (built === undefined) throw new Error('the suite app is built in beforeAll: read it inside hooks and tests');
    return built;
  };
}

class SuiteTestApp<T extends TestApp> implements TestApp {
  protected readonly built: () => T;
  constructor(built: () => T) {
    this.built = built;
  }
  get app() {
    return this.built().app;
  }
  get database() {
    return this.built().database;
  }
  get config() {
    return this.built().config;
  }
  close() {
    return this.built().close();
  }
}

class SuiteApp<T extends AuthTestApp> extends SuiteTestApp<T> implements AuthTestApp {
  get clock() {
    return this.built().clock;
  }
}

/** The suite's app on the real clock (see createTestApp; `setup` adds test-only routes). */
export function suiteTestApp(
  engine: DbEngine,
  overrides: Partial<Config> = {},
  setup?: (app: FastifyInstance) => void,
  options: GeoOption = {},
): TestApp {
  return new SuiteTestApp(
    perSuite(
      () => createTestApp(engine, overrides, setup, options),
      (t) => t.close(),
    ),
  );
}

/** The suite's auth test app (see createAuthTestApp). */
export function suiteAuthApp(engine: DbEngine, overrides: Partial<Config> = {}, options: GeoOption = {}): AuthTestApp {
  return new SuiteApp(
    perSuite(
      () => createAuthTestApp(engine, overrides, options),
      (t) => t.close(),
    ),
  );
}

export interface ListeningAuthApp extends AuthTestApp {
  /** The base URL of the free local port it listens on, for sockets and fetch. */
  base: string;
}

class ListeningSuiteApp extends SuiteApp<ListeningAuthApp> implements ListeningAuthApp {
  get base() {
    return this.built().base;
  }
}

/** The suite's auth test app, listening on a real port (the tests that open sockets on it). */
export function suiteListeningApp(engine: DbEngine, options: GeoOption = {}): ListeningAuthApp {
  const built = perSuite(
    async () => {
      const t = await createAuthTestApp(engine, {}, options);
      return Object.assign(t, { base: await listen(t.app) });
    },
    (t) => t.close(),
  );
  return new ListeningSuiteApp(built);
}

/** Instances of one deployment share the signing secret (server/src/modules/auth/secret.ts). */
const SHARED_JWT_SECRET = 'deux-instances-un-secret-partagé-0123456789';

export interface TwoInstances {
  /** Instance 1, with its database and clock (like suiteAuthApp's, readable before the hook ran). */
  t: AuthTestApp;
  second: FastifyInstance;
  base1: string;
  base2: string;
}

/**
 * Two instances of one deployment on one fresh PostgreSQL database, both listening.
 * `sharedClock`: instance 2 runs on instance 1's test clock too, not on the real time; `config`:
 * both instances' settings (read when the suite's hook builds them).
 */
export function suiteTwoInstances({
  sharedClock = false,
  config = {},
}: {
  sharedClock?: boolean;
  config?: Partial<Config>;
} = {}): TwoInstances {
  const built = perSuite(
    async () => {
      const t = await createAuthTestApp('postgres', { ...config, jwtSecret: SHARED_JWT_SECRET });
      const second = await buildApp(t.config, {
        database: t.database,
        geo: t.app.ctx.geo,
        ...(sharedClock ? { now: t.clock.now } : {}),
      });
      return { t, second, base1: await listen(t.app), base2: await listen(second) };
    },
    async ({ t, second }) => {
      await second.close();
      await t.close();
    },
  );
  return {
    t: new SuiteApp(() => built().t),
    get second() {
      return built().second;
    },
    get base1() {
      return built().base1;
    },
    get base2() {
      return built().base2;
    },
  };
}
