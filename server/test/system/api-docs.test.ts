/**
 * docs/api.md cannot drift from the routes: every route the app registers (read through an
 * onRoute hook, installed as the instance is created) has a row in the table, every row names a
 * registered route, a documented query lists exactly the keys of the route's query schema, and
 * every route of the account side declares its response schema.
 */
import { channel } from 'node:diagnostics_channel';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../helpers/app.ts';

interface Documented {
  methods: string[];
  paths: string[];
  /** Query parameter names per path, when the row shows `?a&b`. */
  queries: Map<string, string[]>;
  line: string;
}

/** The table rows of docs/api.md: `| GET / POST | /api/a, /api/b?x&y | who | what |`. */
function parseDocs(markdown: string): Documented[] {
  const rows: Documented[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
    if (cells.length < 4 || !/^(GET|POST|PATCH|PUT|DELETE|WS)( \/ (GET|POST|PATCH|PUT|DELETE))*$/.test(cells[1]))
      continue;
    const methods = cells[1].split(' / ').map((m) => (m === 'WS' ? 'GET' : m));
    const queries = new Map<string, string[]>();
    const paths = cells[2].split(', ').map((raw) => {
      const [path, query] = raw.split('?');
      if (query !== undefined) {
        queries.set(
          path,
          query.split('&').flatMap((part) => (part.includes('=') ? [part.split('=')[0]] : part.split('\\|'))),
        );
      }
      return path;
    });
    rows.push({ methods, paths, queries, line });
  }
  return rows;
}

/** Served outside the API: the built web app and its fallback. */
const NOT_API = (url: string) => !url.startsWith('/api/') && !url.startsWith('/media/') && !url.startsWith('/dev/');

/** The account side of the API: every route here declares its response. */
const ACCOUNT_PREFIXES = [
  '/api/auth/',
  '/api/profiles/',
  '/api/conversations',
  '/api/health',
  '/api/config',
  '/api/geo/',
  '/api/map/',
];

const keysOf = (schema: unknown): string[] | null =>
  schema instanceof z.ZodObject ? Object.keys(schema.shape).sort() : null;

describe('docs/api.md', () => {
  const routes: RouteOptions[] = [];
  let test: TestApp;
  let docs: Documented[];

  beforeAll(async () => {
    const initialization = channel('fastify.initialization');
    const collect = (message: unknown) => {
      const { fastify } = message as { fastify: FastifyInstance };
      fastify.addHook('onRoute', (route) => {
        routes.push(route);
      });
    };
    initialization.subscribe(collect);
    try {
      test = await createTestApp('pglite');
    } finally {
      initialization.unsubscribe(collect);
    }
    docs = parseDocs(await readFile(new URL('../../../docs/api.md', import.meta.url), 'utf8'));
  });
  afterAll(() => test?.close());

  const apiRoutes = () =>
    routes
      .flatMap((r) =>
        (Array.isArray(r.method) ? r.method : [r.method]).map((method) => ({ method, url: r.url, route: r })),
      )
      .filter((r) => r.method !== 'HEAD' && !NOT_API(r.url));

  it('has a row for every registered route', () => {
    expect(apiRoutes().length).toBeGreaterThan(30);
    const missing = apiRoutes()
      .filter(({ method, url }) => !docs.some((d) => d.methods.includes(method) && d.paths.includes(url)))
      .map(({ method, url }) => `${method} ${url}`);
    expect(missing).toEqual([]);
  });

  it('documents no route the app does not have', () => {
    const stale = docs.flatMap((d) =>
      d.paths.flatMap((path) =>
        d.methods
          .filter((method) => !apiRoutes().some((r) => r.url === path && r.method === method))
          .map((method) => `${method} ${path}`),
      ),
    );
    // One row may pair routes of different methods (GET / POST on one path, POST / DELETE).
    const pairedRows = docs.filter((d) => d.methods.length > 1).flatMap((d) => d.paths);
    expect(stale.filter((s) => !pairedRows.includes(s.split(' ')[1]))).toEqual([]);
    for (const d of docs.filter((row) => row.methods.length > 1)) {
      for (const path of d.paths)
        expect(
          apiRoutes().some((r) => r.url === path),
          d.line,
        ).toBe(true);
    }
  });

  it("lists exactly the query schema's keys wherever a row shows a query", () => {
    for (const { method, url, route } of apiRoutes()) {
      const row = docs.find((d) => d.methods.includes(method) && d.paths.includes(url));
      const documented = row?.queries.get(url);
      const declared = keysOf(route.schema?.querystring);
      // Routes whose query is still read by hand (no zod object) are only held to the row's existence.
      if (documented && declared) expect({ url, keys: declared }).toEqual({ url, keys: [...documented].sort() });
      else if (declared && declared.length > 0)
        expect({ url, undocumentedQuery: declared }).toEqual({ url, undocumentedQuery: [] });
    }
  });

  it('declares a response schema on every route of the account side', () => {
    const without = apiRoutes()
      .filter(({ url }) => ACCOUNT_PREFIXES.some((p) => url.startsWith(p)) && url !== '/api/realtime')
      .filter(({ route }) => !route.schema?.response)
      .map(({ method, url }) => `${method} ${url}`);
    expect(without).toEqual([]);
  });
});
