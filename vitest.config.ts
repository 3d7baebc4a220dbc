import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Three tiers, run alone with `npm test -- unit|api|web` (browser journeys: Playwright, e2e/).
 * - unit: rules and pure functions, no database and no network.
 * - api: the server over inject, real sockets, PGlite and PostgreSQL. Its globalSetup migrates
 *   one PGlite snapshot and one PostgreSQL template per run; each test app starts from them.
 * - web: the React app's components and logic (jsdom where a file asks for it).
 *
 * pool 'forks': the api tier's files watch `process` events, send signals, spawn servers and
 * load PGlite's WASM, sharp and argon2 (native); a process per file keeps those apart. A file's
 * cost is the server import and its databases, not the worker start, so threads would gain little.
 * At least two workers even on two cores (Vitest's default there would be one): the api files
 * spend much of their time waiting on PostgreSQL, sockets and timers. Vitest runs projects with
 * different worker counts in separate groups, so the count is one for all tiers.
 *
 * The unit and api files share their worker's modules (`isolate: false`): importing the server
 * once per worker instead of once per file is most of what the tiers cost. Each api file builds its
 * own app, databases and users, and leaves nothing behind. The web files stay isolated: React
 * Query's clients, the stores and the fake browser APIs they install live at module level.
 */
const PURE_SERVER_TESTS = [
  'server/test/auth/human-check.test.ts',
  'server/test/auth/access-tokens.test.ts',
  'server/test/auth/password-hash.test.ts',
  'server/test/moderation/appeal-link.test.ts',
  'server/test/profiles/profile-schema.test.ts',
  'server/test/posts/feed-bytes.test.ts',
  'server/test/posts/approximate-rule.test.ts',
  'server/test/posts/feed-cache.test.ts',
  'server/test/media/images.test.ts',
  'server/test/media/audio.test.ts',
  'server/test/geo/land-data.test.ts',
  'server/test/geo/land-check.test.ts',
  'server/test/geo/geocoder.test.ts',
  'server/test/realtime/view-index.test.ts',
  'server/test/realtime/socket-blocks.test.ts',
  'server/test/bus/payload-stamps.test.ts',
  'server/test/push/keys.test.ts',
  'server/test/system/production-config.test.ts',
  'server/test/geo/land-index.test.ts',
  'server/test/geo/gshhg-extract.test.ts',
  'server/test/geo/place-coverage.test.ts',
  'server/test/geo/geodata-files.test.ts',
  'server/test/geo/pmtiles-writer.test.ts',
  'server/test/geo/basemap-archive.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // `expect.poll` waits for what a caller would see (a push, a bus event, a row) for up to 10 s,
    // not Vitest's 1 s: a poll ends as soon as the thing is there, so a passing test costs nothing
    // more, and a busy machine does not fail it.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: 'unit', isolate: false, include: ['core/test/**/*.test.ts', ...PURE_SERVER_TESTS] },
      },
      {
        extends: true,
        test: {
          name: 'api',
          isolate: false,
          include: ['server/test/**/*.test.ts'],
          exclude: PURE_SERVER_TESTS,
          globalSetup: ['server/test/helpers/global-databases.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'web', include: ['web/test/**/*.test.{ts,tsx}'], setupFiles: ['web/test/support/setup.ts'] },
      },
    ],
  },
});
