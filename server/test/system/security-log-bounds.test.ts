/**
 * The security log stays bounded whoever makes events happen: repeats of a kind from one source
 * within a window share one row with their count; other sources keep their own rows up to a
 * limit per window, beyond which they share one; the rows' facts still cannot be edited.
 */
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { securityLogs } from '../../src/db/schema.ts';
import { SECURITY_LOG_SOURCES_PER_WINDOW, SECURITY_LOG_WINDOW_MS } from '../../src/modules/security/log.ts';
import { call, freshIp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member } from '../launch/fixtures.ts';
import { STRIPE_CONFIG } from '../payments/stripe-events.ts';

describe.each(engines)('security log bounds on %s', (engine) => {
  const t = suiteAuthApp(engine, STRIPE_CONFIG);
  const badWebhook = (ip: string) =>
    call(t, {
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json' },
      payload: 'x',
      ip,
    });
  const rowsOf = (eventType: string, where: ReturnType<typeof eq>) =>
    t.database.db
      .select()
      .from(securityLogs)
      .where(and(eq(securityLogs.eventType, eventType), where));

  it('writes 300 unsigned webhook posts from one address as one row counting 300, another address its own', async () => {
    const ip = freshIp();
    for (let i = 0; i < 300; i++) expect((await badWebhook(ip)).statusCode).toBe(400);
    const other = freshIp();
    expect((await badWebhook(other)).statusCode).toBe(400);

    const rows = await rowsOf('payment_webhook_refused', eq(securityLogs.ip, ip));
    expect(rows).toHaveLength(1);
    expect(rows[0].occurrences).toBe(300);
    expect(rows[0].severity).toBe('high');
    const others = await rowsOf('payment_webhook_refused', eq(securityLogs.ip, other));
    expect(others.map((r) => r.occurrences)).toEqual([1]);

    // Staff see the count in the log list.
    const admin = await member(t, 'admin');
    const listed = (
      await call(t, {
        method: 'GET',
        url: '/api/admin/security-logs?eventType=payment_webhook_refused&limit=100',
        token: admin.token,
      })
    ).json();
    expect(listed.logs.find((l: { id: string }) => l.id === rows[0].id)).toMatchObject({ occurrences: 300 });

    // The next window starts a new row.
    t.clock.advance(SECURITY_LOG_WINDOW_MS);
    await badWebhook(ip);
    expect((await rowsOf('payment_webhook_refused', eq(securityLogs.ip, ip))).map((r) => r.occurrences).sort()).toEqual(
      [1, 300],
    );
  });

  it("counts a member's 50 refused staff calls on one row per severity, and another member's on their own", async () => {
    const lea = await member(t);
    const marc = await member(t);
    for (let i = 0; i < 25; i++) {
      expect((await call(t, { method: 'GET', url: '/api/admin/users', token: lea.token })).statusCode).toBe(403);
      expect((await call(t, { method: 'GET', url: '/api/costs', token: lea.token })).statusCode).toBe(403);
    }
    expect((await call(t, { method: 'GET', url: '/api/admin/users', token: marc.token })).statusCode).toBe(403);

    // One row per severity: the admin routes' refusals are high, the cost report's medium.
    const leas = await rowsOf('permission_denied', eq(securityLogs.userId, lea.id));
    expect(leas.map((r) => `${r.severity} ${r.occurrences}`).sort()).toEqual(['high 25', 'medium 25']);
    const marcs = await rowsOf('permission_denied', eq(securityLogs.userId, marc.id));
    expect(marcs.map((r) => r.occurrences)).toEqual([1]);
  });

  it('keeps a bounded number of rows when many addresses send the same refused event', async () => {
    t.clock.advance(SECURITY_LOG_WINDOW_MS);
    const ips = Array.from({ length: SECURITY_LOG_SOURCES_PER_WINDOW + 30 }, () => freshIp());
    for (const ip of ips) await badWebhook(ip);
    const start = new Date(Math.floor(t.clock.now().getTime() / SECURITY_LOG_WINDOW_MS) * SECURITY_LOG_WINDOW_MS);
    const rows = await rowsOf('payment_webhook_refused', eq(securityLogs.windowStart, start));
    expect(rows).toHaveLength(SECURITY_LOG_SOURCES_PER_WINDOW + 1);
    expect(rows.reduce((sum, r) => sum + r.occurrences, 0)).toBe(ips.length);
    expect(rows.find((r) => r.occurrences === 30)?.ip).toBeNull();
  });

  it('still refuses any edit of an entry other than its count growing', async () => {
    const [row] = await rowsOf('payment_webhook_refused', sql`true`);
    await expect(
      t.database.db.update(securityLogs).set({ eventDescription: 'effacé' }).where(eq(securityLogs.id, row.id)),
    ).rejects.toThrow();
    await expect(
      t.database.db.update(securityLogs).set({ occurrences: 0 }).where(eq(securityLogs.id, row.id)),
    ).rejects.toThrow();
    await expect(t.database.db.delete(securityLogs).where(eq(securityLogs.id, row.id))).rejects.toThrow();
  });
});
