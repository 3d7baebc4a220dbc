/**
 * Cost monitor and emergency mode (docs/product.md, Limits) through the real app: the counters
 * are pushed with the monitor's own `count` and the clock is the app's, so the thresholds are
 * reached without a hundred thousand requests. Above 100 %: a warning in the security log;
 * above 120 %: geocoder skipped, map answers cached longer; above 150 %: posting refused with
 * its French text for 4 h, sign-up limited, cache lifetimes × 10.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { COST_CAPS, MESSAGES } from '@moodmap/core';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { securityLogs } from '../../src/db/schema.ts';
import { call, createClock, freshIp, signUpBody } from '../helpers/auth.ts';
import { createPostgresDatabase, engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member } from './fixtures.ts';

const SAINT_DENIS = { latitude: -20.8789, longitude: 55.4481 };
const HOUR = 3_600_000;
const post = { category: 'happy', content: 'Bonjour la Réunion', ...SAINT_DENIS };
const viewport = '/api/posts/viewport?west=55&south=-21.5&east=56&north=-20.5&zoom=10';

describe.each(engines)('cost monitor on %s', (engine) => {
  const t = suiteAuthApp(engine);
  beforeAll(() => {
    // 23:00 would cross midnight within the 4 h; start the day early so all of it is one day.
    const now = t.clock.now();
    const sixAm = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 6);
    t.clock.advance(sixAm - now.getTime() + (now.getTime() > sixAm ? 86_400_000 : 0));
  });

  const costs = () => t.app.ctx.costs;
  const logs = (eventType: string) =>
    t.database.db.select().from(securityLogs).where(eq(securityLogs.eventType, eventType));
  const maxAge = async () => (await call(t, { method: 'GET', url: viewport })).headers['cache-control'];
  /** Brings the paid media store's operations to `ratio` of their cap. */
  async function reach(ratio: number) {
    const day = await costs().evaluate();
    costs().count('storage_operations', Math.ceil(COST_CAPS.storage_operations * ratio) - day.units.storage_operations);
    return costs().evaluate();
  }

  it('changes behaviour at 100 %, 120 % and 150 % of a cap, and ends emergency mode after 4 h', async () => {
    const poster = await member(t);
    expect((await reach(0.99)).level).toBe('normal');
    expect(await maxAge()).toBe('public, max-age=5');

    // Above the cap: a warning, written once, nothing else changes.
    expect((await reach(1.01)).level).toBe('warn');
    await costs().evaluate();
    expect(await logs('cost_warning')).toHaveLength(1);
    expect(costs().geocoderAllowed()).toBe(true);
    expect(await maxAge()).toBe('public, max-age=5');

    // Above 120 %: the geocoder is skipped and map answers are cached longer.
    expect((await reach(1.21)).level).toBe('throttle');
    expect(costs().geocoderAllowed()).toBe(false);
    expect(await maxAge()).toBe('public, max-age=15');
    const allowed = await call(t, { method: 'POST', url: '/api/posts', token: poster.token, payload: post });
    expect(allowed.statusCode).toBe(201);
    await call(t, { method: 'DELETE', url: `/api/posts/${allowed.json().post.id}`, token: poster.token });

    // Above 150 %: emergency mode.
    expect((await reach(1.51)).level).toBe('emergency');
    const refused = await call(t, { method: 'POST', url: '/api/posts', token: poster.token, payload: post });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ error: { code: 'emergency_mode', message: MESSAGES.emergency_mode } });
    expect(await maxAge()).toBe('public, max-age=50');
    const status = (await call(t, { method: 'GET', url: '/api/emergency' })).json();
    expect(status.active).toBe(true);
    expect(Date.parse(status.until) - t.clock.now().getTime()).toBe(4 * HOUR);
    expect(await logs('emergency_mode_on')).toHaveLength(1);

    // 4 h later it ends by itself and does not start again the same day.
    t.clock.advance(4 * HOUR + 1000);
    expect((await costs().evaluate()).level).toBe('throttle');
    expect((await call(t, { method: 'GET', url: '/api/emergency' })).json()).toEqual({ active: false, until: null });
    // The poster's access token has expired meanwhile: a fresh sign-in.
    const later = await member(t);
    const again = await call(t, { method: 'POST', url: '/api/posts', token: later.token, payload: post });
    expect(again.statusCode).toBe(201);
    expect(await logs('emergency_mode_on')).toHaveLength(1);
  });

  it('lets a super_admin switch emergency mode on and off, and shows the counters and cost in EUR', async () => {
    const boss = await member(t, 'super_admin');
    const admin = await member(t, 'admin');
    const poster = await member(t);
    expect(
      (await call(t, { method: 'PUT', url: '/api/costs/emergency', token: admin.token, payload: { active: true } }))
        .statusCode,
    ).toBe(403);
    const on = await call(t, {
      method: 'PUT',
      url: '/api/costs/emergency',
      token: boss.token,
      payload: { active: true },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json().active).toBe(true);
    expect((await call(t, { method: 'POST', url: '/api/posts', token: poster.token, payload: post })).statusCode).toBe(
      503,
    );

    const report = await call(t, { method: 'GET', url: '/api/costs', token: admin.token });
    expect(report.statusCode).toBe(200);
    const body = report.json();
    expect(body.emergency).toMatchObject({ active: true, manual: true });
    const storage = body.counters.find((c: { metric: string }) => c.metric === 'storage_operations');
    expect(storage.cap).toBe(10_000);
    expect(storage.units).toBeGreaterThan(15_000);
    expect(storage.costEur).toBeCloseTo(storage.units * storage.unitPriceEur, 2);
    const sum = body.counters.reduce((total: number, c: { costEur: number }) => total + c.costEur, 0);
    expect(body.estimatedDailyCostEur).toBeCloseTo(sum, 1);
    // Requests this server answers itself cost nobody anything.
    expect(body.counters.find((c: { metric: string }) => c.metric === 'backend_requests').units).toBe(0);

    // Sign-up is limited while it lasts: 20 an hour for everyone together, whatever the address.
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const body = await signUpBody(t, { challengeAnswer: 'faux' });
      statuses.push(
        (await call(t, { method: 'POST', url: '/api/auth/signup', payload: body, ip: freshIp() })).statusCode,
      );
    }
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses[20]).toBe(429);

    const off = await call(t, {
      method: 'PUT',
      url: '/api/costs/emergency',
      token: boss.token,
      payload: { active: false },
    });
    expect(off.json()).toEqual({ active: false, until: null });
    expect((await call(t, { method: 'POST', url: '/api/posts', token: poster.token, payload: post })).statusCode).toBe(
      201,
    );
    const user = await member(t);
    expect((await call(t, { method: 'GET', url: '/api/costs', token: user.token })).statusCode).toBe(403);
  });
});

const counterEngines = process.env.REDIS_URL ? ['database', 'redis'] : ['database'];
describe.runIf(engines.includes('postgres')).each(counterEngines)(
  'cost monitor shared by two instances on PostgreSQL, counters in the %s',
  (counters) => {
    it("adds both instances' counts, starts one emergency, and both refuse posts", async () => {
      const { url, drop } = await createPostgresDatabase();
      const clock = createClock();
      const dbA = await openDatabase({ databaseUrl: url });
      const dbB = await openDatabase({ databaseUrl: url });
      const redis =
        counters === 'redis'
          ? { redisUrl: process.env.REDIS_URL, redisPrefix: `moodmap:test:${process.pid}:${Date.now()}:` }
          : {};
      const config = testConfig({ publicUrl: 'http://moodmap.test', ...redis });
      const a = await buildApp(config, { database: dbA, now: clock.now });
      const b = await buildApp(config, { database: dbB, now: clock.now });
      try {
        await Promise.all([a.ready(), b.ready()]);
        a.ctx.costs.count('storage_operations', 8_000);
        b.ctx.costs.count('storage_operations', 8_000);
        await b.ctx.costs.flush();
        expect((await a.ctx.costs.evaluate()).units.storage_operations).toBe(16_000);
        expect((await a.ctx.costs.evaluate()).level).toBe('emergency');
        expect((await b.ctx.costs.evaluate()).level).toBe('emergency');
        const logs = await dbA.db
          .select()
          .from(securityLogs)
          .where(and(eq(securityLogs.eventType, 'emergency_mode_on')));
        expect(logs).toHaveLength(1);
        await expect(b.ctx.costs.assertPostingAllowed()).rejects.toMatchObject({ status: 503, code: 'emergency_mode' });
        clock.advance(4 * HOUR + 1);
        await expect(b.ctx.costs.assertPostingAllowed()).resolves.toBeUndefined();
      } finally {
        await Promise.allSettled([a.close(), b.close()]);
        await Promise.allSettled([dbA.close(), dbB.close()]);
        await drop();
      }
    }, 60_000);
  },
);
