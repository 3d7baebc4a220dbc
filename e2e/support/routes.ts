/**
 * Routed API answers that add to what the server sent. The page may give a request up while its
 * handler waits for the server (a newer view aborts the older view's fetch, a test ends): the
 * answer fetched for it is then disposed and the route can no longer be fulfilled. Such a request
 * has nobody left to answer, so it is dropped; any other error still fails the test.
 */
import type { Route } from '@playwright/test';

/** Errors Playwright raises for a request the page, or the test, has given up on. */
const GIVEN_UP = /has been disposed|Request context disposed|has been closed|Route is already handled/;

function givenUp(error: unknown): boolean {
  return error instanceof Error && GIVEN_UP.test(error.message);
}

/**
 * A kept-alive connection the server closed as idle just as the fetch reused it: a browser sends
 * such a GET again on a fresh connection, and so does serverJson, once.
 */
const REUSED_CONNECTION_CLOSED = /ECONNRESET|socket hang up/;

/**
 * The server's answer as JSON, asked without a validator so it has a body (never a 304) to add
 * to; null when the request was given up meanwhile.
 */
export async function serverJson<T>(route: Route): Promise<T | null> {
  const headers = { ...route.request().headers() };
  delete headers['if-none-match'];
  const fetchJson = async () => (await (await route.fetch({ headers })).json()) as T;
  try {
    return await fetchJson().catch((error: unknown) => {
      const retry =
        route.request().method() === 'GET' && error instanceof Error && REUSED_CONNECTION_CLOSED.test(error.message);
      if (retry) return fetchJson();
      throw error;
    });
  } catch (error) {
    if (givenUp(error)) return null;
    throw error;
  }
}

/** Fulfils the route with a JSON body of ours, unless its request was given up meanwhile. */
export async function answerJson(route: Route, json: unknown, headers: Record<string, string> = {}): Promise<void> {
  try {
    await route.fulfill({ status: 200, headers, json });
  } catch (error) {
    if (!givenUp(error)) throw error;
  }
}
