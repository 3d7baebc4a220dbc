/**
 * The exhaustive part of the fuzz, beside the random one: every route that takes a body × every
 * field the API reads × each value of the wrong type (all other fields valid), and every GET
 * route × every cursor parameter × each odd date. Random draws reach these combinations too
 * rarely for a defect in one field of one route (a sign-up honeypot) to be found every run.
 */
import fc from 'fast-check';
import { ODD_DATES, deepArray } from './hostile-values.ts';
import { validFields, type FuzzRequest, type WorldIds } from './requests.ts';
import type { Route } from './route-list.ts';

/**
 * A fake string, an array nested deeper than any stack (20 000 overflows `String()` already and
 * parses quickly; the 200 000-deep one is in the random part), a list, a NUL.
 */
export const TYPE_CONFUSION: unknown[] = [{ toString: 1 }, deepArray(20_000), ['a', 'b'], 'a\u0000b'];

const base64url = (text: string) => Buffer.from(text).toString('base64url');

/** The id of the right kind for a route, so the request gets past "not found". */
function idFor(url: string, ids: WorldIds): string {
  if (url.includes('/conversations/')) return ids.conversations[0];
  if (url.includes('/comments/')) return ids.comments[0];
  if (url.includes('/profiles/')) return ids.users[1];
  // The other member's post: its comments and likes are open to the caller.
  return ids.posts[1];
}

const bare = (route: Route, ids: WorldIds, n: number): Omit<FuzzRequest, 'body' | 'contentType'> => ({
  route,
  method: route.method,
  path: route.url.replace(/:\w+/g, idFor(route.url, ids)),
  query: '',
  headers: {},
  ip: `10.13.${(n >> 8) & 255}.${n & 255}`,
});

export function typeConfusionRequests(routes: Route[], ids: WorldIds): FuzzRequest[] {
  const fields = validFields(ids);
  const requests: FuzzRequest[] = [];
  let n = 0;
  for (const route of routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))) {
    for (const field of Object.keys(fields)) {
      for (const value of TYPE_CONFUSION) {
        n += 1;
        const example = Object.fromEntries(
          Object.entries(fields).map(([k, arb]) => [k, fc.sample(arb, { seed: n, numRuns: 1 })[0]]),
        );
        // A fresh address each time: the per-account limits must not answer instead of the check.
        const body = { ...example, email: `confusion${n}@example.fr`, [field]: value };
        requests.push({ ...bare(route, ids, n), contentType: 'application/json', body: { kind: 'json', value: body } });
      }
    }
  }
  return requests;
}

/** Cursors `Date.parse` reads and PostgreSQL refuses, in each format the API hands out. */
export function oddCursors(ids: WorldIds): string[] {
  const id = ids.conversations[0];
  return [
    ...['0000-01-01T00:00:00.000Z', '2024-02-30T00:00:00.000Z', '9999-12-31T23:59:59.999Z'].map((d) =>
      base64url(`t:${d}`),
    ),
    ...['March 7', '-271821-04-20T00:00:00Z', '0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '2024-02-30'].map(
      (d) => base64url(`${d}|${id}`),
    ),
    ...ODD_DATES.slice(0, 5),
    'a\u0000b',
    ids.messages[0],
  ];
}

export function cursorRequests(routes: Route[], ids: WorldIds): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  let n = 0;
  for (const route of routes.filter((r) => r.method === 'GET' && !r.url.includes('*'))) {
    for (const key of ['since', 'before', 'after']) {
      for (const cursor of oddCursors(ids)) {
        n += 1;
        requests.push({
          ...bare(route, ids, n),
          query: `${key}=${encodeURIComponent(cursor)}`,
          contentType: null,
          body: null,
        });
      }
    }
  }
  return requests;
}
