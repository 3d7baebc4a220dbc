/**
 * The dev-only routes (every path under /dev/): never registered in production, and elsewhere
 * answering only to a request made on this machine, not relayed: anyone else gets the 404 of a
 * route that does not exist, whatever the route would have done (grant a role, show a payment).
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { staffRoles } from '../../src/db/schema.ts';
import { call, createUser, signedInUser } from '../helpers/auth.ts';
import { createTestApp } from '../helpers/app.ts';
import { createTestDatabase, engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';

const notFound = { error: { code: 'not_found', message: 'Ressource introuvable' } };
const RELAY_HEADERS: Array<Record<string, string>> = [
  { 'x-forwarded-for': '203.0.113.9' },
  { 'x-real-ip': '203.0.113.9' },
  { forwarded: 'for=203.0.113.9' },
  { 'x-forwarded-host': 'moodmap.example' },
  { 'x-forwarded-proto': 'https' },
];

describe.each(engines)('dev routes on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const grant = (email: string, options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({ method: 'POST', url: '/dev/role', payload: { email, role: 'super_admin' }, ...options });
  const roleOf = async (id: string) =>
    (await t.database.db.select().from(staffRoles).where(eq(staffRoles.userId, id))).at(0)?.role ?? 'user';

  it('grants a role to a request made on this machine', async () => {
    const lea = await createUser(t);
    for (const remoteAddress of ['127.0.0.1', '::1']) {
      const res = await grant(lea.email, { remoteAddress });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await roleOf(lea.id)).toBe('super_admin');
  });

  it('answers another peer the 404 of an unknown route, for a known and an unknown e-mail alike, and changes no role', async () => {
    const lea = await createUser(t);
    const unknownRoute = await t.app.inject({
      method: 'POST',
      url: '/dev/nowhere',
      remoteAddress: '192.0.2.50',
      payload: {},
    });
    for (const remoteAddress of ['192.0.2.50', '2001:db8::5', '::ffff:10.0.0.7']) {
      for (const email of [lea.email, 'personne@example.fr']) {
        const res = await grant(email, { remoteAddress, headers: { 'x-forwarded-for': '127.0.0.1' } });
        expect(res.statusCode, `${remoteAddress} ${email}`).toBe(404);
        expect(res.json()).toEqual(notFound);
        expect(res.body).toBe(unknownRoute.body);
      }
    }
    expect(await roleOf(lea.id)).toBe('user');
  });

  it('answers 404 to a request relayed through this machine, and changes no role', async () => {
    const lea = await createUser(t);
    for (const headers of RELAY_HEADERS) {
      const res = await grant(lea.email, { remoteAddress: '127.0.0.1', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    expect(await roleOf(lea.id)).toBe('user');
  });

  it('guards the dev checkout and the dev outbox the same way', async () => {
    const { token } = await signedInUser(t);
    const checkout = await call(t, { method: 'POST', url: '/api/pulse/checkout', token, payload: { quantity: 1 } });
    const { url } = checkout.json() as { url: string };
    expect((await t.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
    for (const target of [url, '/dev/mail', '/dev/mail.json']) {
      for (const method of ['GET', 'HEAD'] as const) {
        expect(
          (await t.app.inject({ method, url: target, remoteAddress: '192.0.2.50' })).statusCode,
          `${method} ${target} from the LAN`,
        ).toBe(404);
        expect(
          (
            await t.app.inject({
              method,
              url: target,
              remoteAddress: '127.0.0.1',
              headers: { 'x-real-ip': '203.0.113.9' },
            })
          ).statusCode,
          `${method} ${target} relayed`,
        ).toBe(404);
      }
    }
    const paid = await t.app.inject({
      method: 'POST',
      url,
      remoteAddress: '192.0.2.50',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ card: '4242424242424242', expiry: '12/39', cvc: '123', name: 'Léa' }).toString(),
    });
    expect(paid.statusCode).toBe(404);
  });
});

describe('dev routes in production', () => {
  /** The routes a production app registers under /dev/. */
  const devRoutesOf = (app: FastifyInstance) =>
    ['/dev/role', '/dev/mail', '/dev/mail.json', '/dev/checkout/:id', '/dev/checkout/:id/confirm'].flatMap((url) =>
      (['GET', 'POST'] as const).filter((method) => app.hasRoute({ method, url })).map((method) => `${method} ${url}`),
    );

  it('registers none', async () => {
    const prod = await createTestApp('pglite', { env: 'production' });
    try {
      expect(devRoutesOf(prod.app)).toEqual([]);
      const res = await prod.app.inject({
        method: 'POST',
        url: '/dev/role',
        payload: { email: 'lea@example.fr', role: 'super_admin' },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });

  it('refuses to start with a route under /dev/', async () => {
    const database = await createTestDatabase('pglite');
    try {
      const app = await buildApp(testConfig({ env: 'production' }), { database });
      // A feature plugin registering a dev route without checking the environment.
      app.register(async (feature) => {
        feature.get('/dev/oubli', async () => ({ ok: true }));
      });
      await expect(app.ready()).rejects.toThrow(/\/dev\/oubli/);
      await app.close().catch(() => {});
    } finally {
      await database.close();
    }
  });
});
