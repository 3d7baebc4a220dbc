/**
 * First-party analytics: what is stored holds no IP and no user id, malformed events
 * are refused and not stored, the endpoint is rate limited, staff read the statistics, and a
 * configured Plausible receives the right events and revenue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsEvents } from '../../src/db/schema.ts';
import { call, createAuthTestApp, freshIp, type AuthTestApp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { STRIPE_CONFIG, deliver, event, randomId, sessionObject } from '../payments/stripe-events.ts';
import { pulsePurchases } from '../../src/db/schema.ts';
import { member, startRecordingPeer, waitFor } from './fixtures.ts';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0';

describe.each(engines)('analytics on %s', (engine) => {
  let t: AuthTestApp;
  let peer: Awaited<ReturnType<typeof startRecordingPeer>>;
  beforeAll(async () => {
    peer = await startRecordingPeer();
    t = await createAuthTestApp(engine, { ...STRIPE_CONFIG, plausible: { url: peer.url, domain: 'moodmap.example' } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  const send = (payload: unknown, options: { ip?: string; token?: string } = {}) =>
    call(t, { method: 'POST', url: '/api/analytics/events', payload: payload as Record<string, unknown>, ...options });
  const rows = () => t.database.db.select().from(analyticsEvents);

  it('stores an event with no IP, no user id and no cookie, only a daily visitor hash', async () => {
    const lea = await member(t);
    const ip = freshIp();
    const res = await send({ name: 'search', path: '/' }, { ip, token: lea.token });
    expect(res.statusCode).toBe(202);
    expect(res.headers['set-cookie']).toBeUndefined();
    const stored = (await rows()).filter((r) => r.name === 'search');
    expect(stored).toHaveLength(1);
    const [row] = stored;
    expect(Object.keys(row).sort()).toEqual(['createdAt', 'day', 'id', 'name', 'path', 'revenueCents', 'visitor']);
    const text = JSON.stringify(row);
    expect(text).not.toContain(ip);
    expect(text).not.toContain(lea.id);
    expect(text).not.toContain(lea.email);
    expect(row.visitor).toMatch(/^[\w-]{22}$/);
    // The same visitor the same day has the same hash; another network another one.
    await send({ name: 'map_interaction', path: '/' }, { ip });
    await send({ name: 'map_interaction', path: '/' }, { ip: freshIp() });
    const visitors = (await rows()).filter((r) => r.name === 'map_interaction').map((r) => r.visitor);
    expect(visitors).toContain(row.visitor);
    expect(new Set(visitors).size).toBe(2);
  });

  it('refuses malformed events and stores none of them', async () => {
    const before = (await rows()).length;
    for (const payload of [
      { name: 'pageview' },
      { name: 'premium_conversion' },
      { name: 'login', revenue: 100 },
      { name: 'login', path: 'https://evil.example/' },
      { name: 'login', userId: 'x' },
      { name: 42 },
      'login',
      null,
    ]) {
      const res = await send(payload);
      // A bare string is sent as text/plain: refused as a media type (415) before any schema.
      expect(res.statusCode, JSON.stringify(payload)).toBe(typeof payload === 'string' ? 415 : 400);
      expect(res.json().error.code).toBeTypeOf('string');
    }
    expect((await rows()).length).toBe(before);
  });

  it('is rate limited per client', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await send({ name: 'map_interaction' }, { ip })).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 202)).toBe(true);
    expect(statuses[60]).toBe(429);
    // Another client is not affected.
    expect((await send({ name: 'map_interaction' }, { ip: freshIp() })).statusCode).toBe(202);
  });

  it('forwards events to Plausible with their names, the domain and the revenue of a premium conversion', async () => {
    peer.received.length = 0;
    await send({ name: 'search', path: '/messages' });
    const search = await waitFor(() => peer.received.find((r) => (r.body as { name?: string }).name === 'search'));
    expect(search.method).toBe('POST');
    expect(search.url).toBe('/api/event');
    expect(search.body).toEqual({ name: 'search', domain: 'moodmap.example', url: 'https://moodmap.example/messages' });
    expect(search.headers['user-agent']).toBe(UA);

    const buyer = await member(t);
    const sessionId = randomId('cs_test');
    await t.database.db
      .insert(pulsePurchases)
      .values({ userId: buyer.id, provider: 'stripe', sessionId, quantity: 5, amountCents: 1250, currency: 'EUR' });
    const res = await deliver(
      t.app,
      event(
        'checkout.session.completed',
        sessionObject({ sessionId, userId: buyer.id, quantity: 5, amountTotal: 1250 }),
      ),
    );
    expect(res.statusCode).toBe(200);
    const conversion = await waitFor(() =>
      peer.received.find((r) => (r.body as { name?: string }).name === 'premium_conversion'),
    );
    expect(conversion.body).toMatchObject({
      name: 'premium_conversion',
      domain: 'moodmap.example',
      revenue: { currency: 'EUR', amount: '12.50' },
    });
    const stored = (await rows()).filter((r) => r.name === 'premium_conversion');
    expect(stored.map((r) => r.revenueCents)).toEqual([1250]);
  });

  it("gives admin and super_admin the day's statistics, and nobody else", async () => {
    const admin = await member(t, 'admin');
    const res = await call(t, { method: 'GET', url: '/api/stats?days=7', token: admin.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.days).toHaveLength(7);
    const today = body.days.at(-1);
    expect(today.day).toBe(t.clock.now().toISOString().slice(0, 10));
    expect(today.events.search).toBe(2);
    expect(today.events.premium_conversion).toBe(1);
    expect(today.revenueCents).toBe(1250);
    expect(today.visitors).toBeGreaterThanOrEqual(3);
    expect(body.currency).toBe('EUR');
    for (const role of [undefined, 'moderator'] as const) {
      const other = await member(t, role);
      expect((await call(t, { method: 'GET', url: '/api/stats', token: other.token })).statusCode).toBe(403);
    }
    expect((await call(t, { method: 'GET', url: '/api/stats?days=12', token: admin.token })).statusCode).toBe(400);
  });
});
