/** Rate limits on the account API (docs/product.md, Limits): per IP and per account, shared by instances. */
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipKey } from '../../src/adapters/rate-limit/limiter.ts';
import { buildApp } from '../../src/app.ts';
import { securityLogs } from '../../src/db/schema.ts';
import { call, createAuthTestApp, createUser, freshEmail, freshIp, signUp, type AuthTestApp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';

const loginAttempt = (t: AuthTestApp, ip: string, email = freshEmail(), headers: Record<string, string> = {}) =>
  call(t, { method: 'POST', url: '/api/auth/login', payload: { email, password: 'Mauvais2024' }, ip, headers });

describe.each(engines)('rate limits on %s', (engine) => {
  const t = suiteAuthApp(engine);

  it('answers the 11th login in 5 minutes with 429, Retry-After and the French text, then lets the IP in again', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await loginAttempt(t, ip)).statusCode).toBe(400);
    const eleventh = await loginAttempt(t, ip);
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.headers['retry-after']).toBe('300');
    expect(eleventh.json()).toEqual({
      error: { code: 'rate_too_many', message: 'Trop de tentatives pour connexion. Bloqué pour 5 minutes.' },
    });

    t.clock.advance(2 * 60_000);
    const during = await loginAttempt(t, ip);
    expect(during.statusCode).toBe(429);
    expect(during.headers['retry-after']).toBe('180');
    expect(during.json()).toEqual({
      error: { code: 'rate_blocked', message: 'Action bloquée pour connexion. Réessayez dans 3 minutes.' },
    });

    t.clock.advance(3 * 60_000);
    expect((await loginAttempt(t, ip)).statusCode).toBe(400);

    const [entry] = await t.database.db
      .select()
      .from(securityLogs)
      .where(and(eq(securityLogs.ip, ip), eq(securityLogs.eventType, 'rate_limit_exceeded')));
    expect(entry.severity).toBe('medium');
  });

  it('does not let a forged X-Forwarded-For reset the per-IP limit', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) await loginAttempt(t, ip, freshEmail(), { 'x-forwarded-for': `203.0.113.${i}` });
    const res = await loginAttempt(t, ip, freshEmail(), { 'x-forwarded-for': '203.0.113.200' });
    expect(res.statusCode).toBe(429);
  });

  it('treats an IPv6 /64 as one client', async () => {
    const net = `2001:db8:${((Math.random() * 0xffff) | 0).toString(16)}:1`;
    for (let i = 1; i <= 10; i++) expect((await loginAttempt(t, `${net}::${i.toString(16)}`)).statusCode).toBe(400);
    expect((await loginAttempt(t, `${net}:abcd:ef01:2345:6789`)).statusCode).toBe(429);
    expect((await loginAttempt(t, '2001:db8:ffff:2::1')).statusCode).toBe(400);
  });

  it("counts one account's failures across IPs towards its own, higher ceiling only", async () => {
    // Ten failures from other IPs do not lock the address (stranger-lockout.test.ts has
    // the ceiling, 100 failures / 15 min, and the owner's known device that passes it).
    const email = freshEmail();
    for (let i = 0; i < 11; i++) expect((await loginAttempt(t, freshIp(), email)).statusCode).toBe(400);
    expect(await t.app.ctx.limits.peek('login_account', `account:${email}`)).toBe(11);
  });

  it('counts every attempt, and refuses even the right password during the block', async () => {
    const user = await createUser(t);
    const ip = freshIp();
    const right = () =>
      call(t, { method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password }, ip });
    expect((await right()).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) await loginAttempt(t, ip);
    expect((await right()).statusCode).toBe(429);
  });

  it('allows 5 sign-ups per 10 minutes per IP', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await signUp(t, {}, ip)).res.statusCode).toBe(201);
    const { res } = await signUp(t, {}, ip);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('600');
    expect(res.json().error.message).toBe('Trop de tentatives pour inscription. Bloqué pour 10 minutes.');
  });

  it('blocks an IP after repeated attacks (security_violation), for sign-in too', async () => {
    const ip = freshIp();
    for (let i = 0; i < 4; i++) {
      const res = await call(t, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: '<script>x</script>@x.fr', password: 'x' },
        ip,
      });
      expect(res.json().error.code).toBe('email_critical');
    }
    const next = await loginAttempt(t, ip);
    expect(next.statusCode).toBe(429);
    expect(next.headers['retry-after']).toBe('3600');
    expect(next.json().error.message).toBe('Action bloquée pour sécurité. Réessayez dans 60 minutes.');
    // Other callers are not affected.
    expect((await loginAttempt(t, freshIp())).statusCode).toBe(400);
  });

  it('shares the counters between two server instances on one database', async () => {
    const second = await buildApp(t.config, { database: t.database, now: t.clock.now });
    try {
      const ip = freshIp();
      for (let i = 0; i < 10; i++) await loginAttempt(t, ip);
      const res = await second.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: freshEmail(), password: 'x' },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe('behind a configured proxy', () => {
  const t = suiteAuthApp('pglite', { trustProxy: true });

  it('takes the client address from X-Forwarded-For only then', async () => {
    const proxy = freshIp();
    for (let i = 0; i < 12; i++) {
      const res = await loginAttempt(t, proxy, freshEmail(), { 'x-forwarded-for': `203.0.113.${i}` });
      expect(res.statusCode).toBe(400);
    }
  });
});

describe.runIf(process.env.REDIS_URL)('rate limits in Redis', () => {
  let t: AuthTestApp;
  const prefix = `moodmap-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
  beforeAll(async () => {
    t = await createAuthTestApp('pglite', { redisUrl: process.env.REDIS_URL, redisPrefix: prefix });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    const redis = new Redis(process.env.REDIS_URL!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('keeps the login counters in Redis, not in the database', async () => {
    expect(t.app.ctx.limits.store.kind).toBe('redis');
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await loginAttempt(t, ip)).statusCode).toBe(400);
    const res = await loginAttempt(t, ip);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('300');
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      expect(await redis.hget(`${prefix}login:ip:${ip}`, 'p')).toBe('11');
    } finally {
      await redis.quit();
    }
    const rows = await t.database.db.execute(sql`select count(*)::int as n from rate_limits`);
    expect(rows.rows[0].n).toBe(0);
  });
});

describe('per-IP keys', () => {
  it.each([
    ['203.0.113.7', 'ip:203.0.113.7'],
    ['::ffff:203.0.113.7', 'ip:203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', 'ip6:2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::9', 'ip6:2001:db8:1:2::/64'],
    ['2001:db8::1', 'ip6:2001:db8::/64'],
    ['::1', 'ip6:::/64'],
  ])('%s → %s', (ip, key) => {
    expect(ipKey(ip)).toBe(key);
  });
});
