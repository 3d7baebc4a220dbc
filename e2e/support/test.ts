/**
 * The journeys' `test`: each test comes from its own client address, as real users do. The e2e
 * server trusts X-Forwarded-For (TRUST_PROXY, as behind a production proxy), so the real per-IP
 * rate limits (docs/product.md, Limits) apply per test instead of to every journey at once.
 */
import { test as base, type BrowserContext } from '@playwright/test';
import { type AppServer, START_TIMEOUT_MS, startAppServer } from './app-server.ts';

let counter = 0;

export const test = base.extend<object, { appServer: AppServer }>({
  // One server and data directory per worker, started before its first test. The outbox and role
  // helpers (support/auth.ts) find it through E2E_PORT, which is per worker process.
  appServer: [
    async ({}, use) => {
      const server = await startAppServer();
      process.env.E2E_PORT = String(server.port);
      await use(server);
      await server.stop();
    },
    { scope: 'worker', auto: true, timeout: START_TIMEOUT_MS + 30_000 },
  ],
  baseURL: async ({ appServer }, use) => use(appServer.base),
  extraHTTPHeaders: async ({}, use, testInfo) => {
    counter += 1;
    const ip = `198.51.${(testInfo.workerIndex * 16 + (counter >> 8)) & 255}.${counter & 255}`;
    await use({ 'x-forwarded-for': ip });
  },
});

/**
 * Addresses for the browsers and request contexts a journey opens itself, which the fixture above
 * does not reach: each call is another client, `${prefix}.${first}`, then `${prefix}.${first + 1}`...
 * Each spec keeps its own range, so journeys running side by side never share a rate limit.
 */
export function clientAddresses(prefix: string, first = 1): () => Record<string, string> {
  let next = first;
  return () => ({ 'x-forwarded-for': `${prefix}.${next++}` });
}

/**
 * The dev pages (the dev checkout) answer only to requests not relayed by a proxy: the context's
 * X-Forwarded-For stays off them.
 */
export async function unrelayedDevPages(context: BrowserContext): Promise<void> {
  await context.route(/\/dev\//, (route) => {
    const { 'x-forwarded-for': _relay, ...headers } = route.request().headers();
    return route.continue({ headers });
  });
}

export { expect } from '@playwright/test';
