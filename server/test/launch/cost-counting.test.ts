/**
 * What the cost monitor counts: only what a paid provider bills, never the requests this server
 * answers itself. A visitor's flood and a day of ordinary map traffic switch nothing on; paid
 * operations above the cap start an emergency that is logged, shown and announced to staff, and
 * that a super_admin ends at once.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { COST_CAPS, COST_METRICS, type CostMetric } from '@moodmap/core';
import { securityLogs } from '../../src/db/schema.ts';
import { call, freshIp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteListeningApp } from '../helpers/suite-app.ts';
import { barrier, signedSocket } from '../helpers/ws.ts';
import { member } from './fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SAINT_DENIS = { latitude: -20.8789, longitude: 55.4481 };
const post = { category: 'happy', content: 'Bonjour la Réunion', ...SAINT_DENIS };
/** Viewports a map user pans through (the app snaps its bounds, so URLs repeat). */
const VIEWPORTS = [
  '/api/posts/viewport?west=55&south=-21.5&east=56&north=-20.5&zoom=10',
  '/api/posts/viewport?west=55.2&south=-21.2&east=55.7&north=-20.8&zoom=12',
  '/api/posts/viewport?west=-10&south=35&east=20&north=55&zoom=5',
  '/api/posts/viewport?west=2.2&south=48.8&east=2.5&north=48.9&zoom=14',
];

describe.each(engines)('cost monitor counting on %s', (engine) => {
  const t = suiteListeningApp(engine);
  beforeAll(() => {
    // A day that starts at midnight UTC, so the simulated day is one counter day.
    const now = t.clock.now();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    t.clock.advance(midnight - now.getTime() + 1000);
  });

  const costs = () => t.app.ctx.costs;
  const allZero = (units: Record<CostMetric, number>) => COST_METRICS.every((m) => units[m] === 0);

  it("counts nothing for a visitor's 404s and viewport reads, and switches nothing on", async () => {
    const ip = freshIp();
    for (let i = 0; i < 1500; i++) {
      const res = await call(t, { method: 'GET', url: `/api/nothing-here-${i}`, ip });
      expect(res.statusCode).toBe(404);
    }
    for (let i = 0; i < 600; i++) await call(t, { method: 'GET', url: VIEWPORTS[i % VIEWPORTS.length], ip });
    const day = await costs().evaluate();
    expect(allZero(day.units)).toBe(true);
    expect(day.level).toBe('normal');
    expect((await call(t, { method: 'GET', url: '/api/emergency' })).json()).toEqual({ active: false, until: null });
  });

  it('sees no emergency after a day of ordinary traffic at ten times the usual rate', async () => {
    // ≈ 18 requests a second for a day is 1.5 M requests: a sample of them goes through the real
    // routes with the clock moved through the day, then the rest of the day is counted at the
    // same rate per route through the same counting and pricing code.
    const perDay = 18 * 86_400;
    const sample = 1200;
    const startDay = (await costs().evaluate()).day;
    const before = (await costs().evaluate()).units;
    for (let i = 0; i < sample; i++) {
      t.clock.advance(Math.floor(DAY / sample) - 10);
      const ip = `203.0.113.${i % 200}`;
      if (i % 300 === 150) {
        // A fresh sign-in: access tokens do not last the day.
        const poster = await member(t);
        const created = await call(t, { method: 'POST', url: '/api/posts', token: poster.token, payload: post, ip });
        expect(created.statusCode).toBe(201);
      } else if (i % 10 === 3) await call(t, { method: 'GET', url: '/api/posts/changes?since=0', ip });
      else if (i % 10 === 7) await call(t, { method: 'GET', url: '/api/emergency', ip });
      else await call(t, { method: 'GET', url: VIEWPORTS[i % VIEWPORTS.length], ip });
      // The monitor evaluates about every hour of the simulated day.
      if (i % 50 === 0) expect((await costs().evaluate()).level).toBe('normal');
    }
    const sampled = (await costs().evaluate()).units;
    for (const metric of COST_METRICS) {
      const perRequest = (sampled[metric] - before[metric]) / sample;
      costs().count(metric, perRequest * (perDay - sample));
    }
    const day = await costs().evaluate();
    expect(day.day).toBe(startDay);
    expect(day.level).toBe('normal');
    expect(day.emergency.active).toBe(false);
    expect(
      await t.database.db.select().from(securityLogs).where(eq(securityLogs.eventType, 'emergency_mode_on')),
    ).toHaveLength(0);
  });

  it('starts an emergency on paid operations above the cap: logged, shown and announced to staff, ended by a super_admin at once', async () => {
    const boss = await member(t, 'super_admin');
    const admin = await member(t, 'admin');
    const poster = await member(t);
    const [adminTab, posterTab] = await Promise.all([
      signedSocket(t.base, admin.id, admin.token),
      signedSocket(t.base, poster.id, poster.token),
    ]);
    try {
      // Media store operations billed by the provider (S3 writes), 160 % of their cap.
      costs().count('storage_operations', COST_CAPS.storage_operations * 1.6);
      expect((await costs().evaluate()).level).toBe('emergency');
      expect(
        (await call(t, { method: 'POST', url: '/api/posts', token: poster.token, payload: post })).statusCode,
      ).toBe(503);

      const [entry] = await t.database.db
        .select()
        .from(securityLogs)
        .where(and(eq(securityLogs.eventType, 'emergency_mode_on'), eq(securityLogs.severity, 'critical')));
      expect(entry.userId).toBeNull();
      expect(entry.reason).toContain('storage_operations');

      const frame = await adminTab.next((f) => f.type === 'emergency.changed');
      expect(frame.data).toMatchObject({ active: true, manual: false });
      await barrier(t.app, [posterTab]);
      expect(posterTab.frames.some((f) => f.type === 'emergency.changed')).toBe(false);

      const shown = (await call(t, { method: 'GET', url: '/api/costs', token: admin.token })).json().emergency;
      expect(shown).toMatchObject({
        active: true,
        manual: false,
        startedBy: null,
        startedByName: null,
        startedAt: t.clock.now().toISOString(),
      });
      expect(shown.reason).toContain('storage_operations');

      const off = await call(t, {
        method: 'PUT',
        url: '/api/costs/emergency',
        token: boss.token,
        payload: { active: false },
      });
      expect(off.json()).toEqual({ active: false, until: null });
      expect(
        (await call(t, { method: 'POST', url: '/api/posts', token: poster.token, payload: post })).statusCode,
      ).toBe(201);
      await adminTab.next((f) => f.type === 'emergency.changed' && (f.data as { active: boolean }).active === false);
      const ended = await t.database.db
        .select()
        .from(securityLogs)
        .where(and(eq(securityLogs.eventType, 'emergency_mode_off'), eq(securityLogs.userId, boss.id)));
      expect(ended).toHaveLength(1);
    } finally {
      adminTab.close();
      posterTab.close();
    }
  });
});
