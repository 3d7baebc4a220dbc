/**
 * Every write route of the API declares its kind for the write policy (`config: { write }`,
 * policies/standing.ts), so a new route cannot forget the suspension, ban and terms
 * rules. The routes are read through an onRoute hook installed as the instance is created; the
 * few that take no policy are listed here with why.
 */
import { channel } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { WRITE_RULES } from '../../src/policies/standing.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Writes with no policy: signing in and out (no account yet, or its own rules), accepting the terms, public ones. */
const EXEMPT = new Set([
  'POST /api/auth/signup',
  'POST /api/auth/login',
  'POST /api/auth/refresh',
  'POST /api/auth/logout',
  'POST /api/auth/recover',
  'POST /api/auth/reset-password',
  'POST /api/auth/password',
  'POST /api/terms/accept',
  // An appeal by e-mailed link: the visitor is not signed in.
  'POST /api/moderation/appeal-link',
  // Signed by the payment provider, not by a member.
  'POST /api/payments/webhook',
  // Anonymous page-view counts.
  'POST /api/analytics/events',
  // Notices of illegal content: anyone may send one, signed in or not, suspended or banned.
  'POST /api/dsa-notices',
  'POST /api/dsa-notices/confirm',
]);

describe('write routes', () => {
  const routes: RouteOptions[] = [];
  let test: TestApp;

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
  });
  afterAll(() => test?.close());

  const writes = () =>
    routes
      .filter((r) => r.url.startsWith('/api/'))
      .flatMap((r) =>
        (Array.isArray(r.method) ? r.method : [r.method])
          .filter((m) => WRITE_METHODS.has(m))
          .map((method) => ({ key: `${method} ${r.url}`, write: r.config?.write })),
      );

  it('each declares a write kind of the policy, unless listed as exempt', () => {
    expect(writes().length).toBeGreaterThan(25);
    const undeclared = writes()
      .filter((r) => !EXEMPT.has(r.key) && !(r.write && r.write in WRITE_RULES))
      .map((r) => r.key);
    expect(undeclared).toEqual([]);
  });

  it('lists as exempt only routes that exist and declare nothing', () => {
    const byKey = new Map(writes().map((r) => [r.key, r.write]));
    for (const key of EXEMPT) {
      expect(byKey.has(key), key).toBe(true);
      expect(byKey.get(key), key).toBeUndefined();
    }
  });
});
