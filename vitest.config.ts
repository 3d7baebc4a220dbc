import { defineConfig } from 'vitest/config';

// Unit, API and component tests. Browser journeys run with Playwright (e2e/).
export default defineConfig({
  test: {
    include: ['core/test/**/*.test.ts', 'server/test/**/*.test.ts', 'web/test/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
