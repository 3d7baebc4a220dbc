/**
 * What analytics keeps cannot point at a person: a path is stored as its route template, times
 * to the hour, and the events a client could fake (sign-ups, logins, posts, messages) are counted
 * by the server from what it did, never from what a client sends.
 */
import { describe, expect, it } from 'vitest';
import { analyticsEvents } from '../../src/db/schema.ts';
import { call, freshIp, signUp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member } from './fixtures.ts';

const HOUR_MS = 3_600_000;
const SAINT_DENIS = { latitude: -20.8789, longitude: 55.4481 };

describe.each(engines)('analytics privacy on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const send = (payload: Record<string, unknown>, ip = freshIp()) =>
    call(t, { method: 'POST', url: '/api/analytics/events', payload, ip });
  const rows = () => t.database.db.select().from(analyticsEvents);
  async function today() {
    const admin = await member(t, 'admin');
    const res = await call(t, { method: 'GET', url: '/api/stats?days=7', token: admin.token });
    expect(res.statusCode).toBe(200);
    return res.json().days.at(-1);
  }

  it('stores a member page as its route template and any unknown path in one bucket', async () => {
    const id = '5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f';
    expect((await send({ name: 'search', path: `/user/${id}` })).statusCode).toBe(202);
    expect((await send({ name: 'search', path: '/secret/abc123' })).statusCode).toBe(202);
    expect((await send({ name: 'search', path: '/messages' })).statusCode).toBe(202);
    const paths = (await rows())
      .filter((r) => r.name === 'search')
      .map((r) => r.path)
      .sort();
    expect(paths).toEqual(['/*', '/messages', '/user/:id']);
    expect(JSON.stringify(await rows())).not.toContain(id);
  });

  it('keeps times to the hour', async () => {
    t.clock.advance(17 * 60_000 + 31_415);
    expect((await send({ name: 'map_interaction', path: '/' })).statusCode).toBe(202);
    const now = t.clock.now().getTime();
    const stored = (await rows()).filter((r) => r.name === 'map_interaction');
    expect(stored).toHaveLength(1);
    expect(stored[0].createdAt.getTime()).toBe(Math.floor(now / HOUR_MS) * HOUR_MS);
  });

  it('600 sign-ups claimed by clients change no statistic; a real sign-up, login and post count once', async () => {
    const before = await today();
    const addresses = Array.from({ length: 10 }, () => freshIp());
    const claims = ['signup', 'login', 'post_created', 'message_sent'];
    const statuses = await Promise.all(
      Array.from({ length: 600 }, (_, i) =>
        send({ name: claims[i % claims.length], path: '/' }, addresses[i % addresses.length]).then((r) => r.statusCode),
      ),
    );
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
    const afterClaims = await today();
    // The admin reading the statistics logged in: that login is real.
    expect(afterClaims.events).toEqual({ ...before.events, login: before.events.login + 1 });
    expect(afterClaims.visitors).toBe(before.visitors);

    const { res } = await signUp(t);
    expect(res.statusCode).toBe(201);
    const afterSignUp = await today();
    expect(afterSignUp.events.signup).toBe(before.events.signup + 1);

    const lea = await member(t);
    const post = await call(t, {
      method: 'POST',
      url: '/api/posts',
      token: lea.token,
      payload: { category: 'happy', content: 'Bonjour', ...SAINT_DENIS },
    });
    expect(post.statusCode).toBe(201);
    const after = await today();
    // Lea's login, then the admin's.
    expect(after.events.login).toBe(afterSignUp.events.login + 2);
    expect(after.events.post_created).toBe(afterSignUp.events.post_created + 1);
    expect(after.events.signup).toBe(afterSignUp.events.signup);
    expect(after.events.message_sent).toBe(after.messages);
    // What the server counted names no visitor, no page and no exact time.
    const counted = (await rows()).filter((r) => ['signup', 'login', 'post_created'].includes(r.name));
    expect(counted.length).toBeGreaterThan(0);
    for (const row of counted) {
      expect(row.visitor).toBeNull();
      expect(row.path).toBeNull();
      expect(row.createdAt.getTime() % HOUR_MS).toBe(0);
    }
  });

  it('a failed login counts nothing', async () => {
    const lea = await member(t);
    const before = await today();
    const failed = await call(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: lea.email, password: 'Mauvais2024' },
    });
    expect(failed.statusCode).toBe(400);
    // Only the login of the admin reading the statistics.
    const after = await today();
    expect(after.events.login).toBe(before.events.login + 1);
  });
});
