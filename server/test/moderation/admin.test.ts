/**
 * The admin panel's API: the role matrix of every admin and moderation endpoint, the
 * users list without e-mails, keyset pages that hold while rows arrive, role changes by the
 * super_admin only, and an audit trail nobody can change.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminCount } from '@moodmap/core';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, publish } from '../interactions/fixtures.ts';
import { as, everyRole, type RoleName } from './fixtures.ts';

const ZERO = '00000000-0000-4000-8000-000000000000';

describe.each(engines)('admin API on %s', (engine) => {
  const t = suiteAuthApp(engine);
  let roles: Awaited<ReturnType<typeof everyRole>>;
  beforeAll(async () => {
    roles = await everyRole(t);
  });

  /** How many events of this type and severity the person caused (repeats share a row and its count). */
  const logCount = async (userId: string, type: string, severity: string) => {
    const result = await t.database.db.execute(
      sql`select coalesce(sum(occurrences), 0)::int as n from security_logs where user_id = ${userId} and event_type = ${type} and severity = ${severity}`,
    );
    return (result.rows[0] as { n: number }).n;
  };

  // Expected status per role: visitor, user, moderator, admin, super_admin.
  const matrix: Array<[string, string, () => Record<string, unknown> | undefined, number[]]> = [
    ['POST', '/api/admin/visit', () => undefined, [401, 403, 200, 200, 200]],
    ['GET', '/api/admin/users', () => undefined, [401, 403, 200, 200, 200]],
    ['GET', '/api/admin/security-logs', () => undefined, [401, 403, 200, 200, 200]],
    ['PUT', `/api/admin/users/${ZERO}/role`, () => ({ role: 'moderator' }), [401, 403, 403, 403, 404]],
    ['GET', '/api/moderation/queue', () => undefined, [401, 403, 200, 200, 200]],
    [
      'POST',
      `/api/moderation/posts/${ZERO}/decision`,
      () => ({ action: 'dismiss', reason: 'no_violation' }),
      [401, 403, 404, 404, 404],
    ],
    ['POST', `/api/moderation/appeals/${ZERO}/decision`, () => ({ outcome: 'uphold' }), [401, 403, 404, 404, 404]],
  ];
  const names: RoleName[] = ['visitor', 'user', 'moderator', 'admin', 'super_admin'];

  it.each(matrix)('%s %s answers each role as it may', async (method, url, payload, expected) => {
    for (const [i, name] of names.entries()) {
      const denied = roles[name] ? await logCount(roles[name].id, 'permission_denied', 'high') : 0;
      const res = await as(t, roles[name], { method: method as 'GET', url, payload: payload() });
      expect(res.statusCode, `${name} ${method} ${url}`).toBe(expected[i]);
      if (res.statusCode >= 400) expect(res.json().error.code).toBeTypeOf('string');
      if (name === 'user') {
        expect(res.json().error.message).toBe('Accès refusé : permissions insuffisantes');
        expect(await logCount(roles.user.id, 'permission_denied', 'high')).toBe(denied + 1);
      }
    }
  });

  it("logs 'admin_access' (medium) on each staff visit", async () => {
    const before = await logCount(roles.moderator.id, 'admin_access', 'medium');
    const res = await as(t, roles.moderator, { method: 'POST', url: '/api/admin/visit' });
    expect(res.json()).toEqual({ role: 'moderator' });
    expect(await logCount(roles.moderator.id, 'admin_access', 'medium')).toBe(before + 1);
  });

  it('shows the users list to super_admin and admin without any e-mail, and an empty one to a moderator', async () => {
    for (const who of [roles.super_admin, roles.admin]) {
      const res = await as(t, who, { method: 'GET', url: '/api/admin/users?limit=200' });
      const body = res.json();
      expect(body.users.length).toBeGreaterThanOrEqual(4);
      expect(body.total).toBe(body.users.length);
      expect(res.body).not.toMatch(/@/);
      expect(Object.keys(body.users[0]).sort()).toEqual([
        'banned',
        'createdAt',
        'id',
        'role',
        'suspendedUntil',
        'username',
      ]);
      expect(body.users.find((u: { id: string }) => u.id === roles.admin.id).role).toBe('admin');
    }
    const res = await as(t, roles.moderator, { method: 'GET', url: '/api/admin/users' });
    expect(res.json()).toEqual({ users: [], nextCursor: null, total: 0 });
  });

  it('searches nicknames by prefix, case-insensitively, with wildcards taken literally', async () => {
    await member(t, 'Zéphyrine');
    await member(t, 'zephyr_bis');
    const names = async (q: string) =>
      (await as(t, roles.admin, { method: 'GET', url: `/api/admin/users?q=${encodeURIComponent(q)}` }))
        .json()
        .users.map((u: { username: string }) => u.username)
        .sort();
    expect(await names('zÉ')).toEqual(['Zéphyrine']);
    expect(await names('zephyr_')).toEqual(['zephyr_bis']);
    expect(await names('%')).toEqual([]);
  });

  it('keyset pages return every row once while rows are inserted', async () => {
    const before = (await as(t, roles.admin, { method: 'GET', url: '/api/admin/security-logs?limit=1' })).json()
      .total as number;
    // 30 entries in the same instant: the cursor must keep microseconds and the id.
    await t.database.db.execute(sql`insert into security_logs (event_type, event_description, severity, created_at)
      select 'test_burst', 'n°' || g, 'low', now() from generate_series(1, 30) g`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/admin/security-logs?limit=7${cursor ? `&cursor=${cursor}` : ''}`;
      const body: { logs: Array<{ id: string }>; nextCursor: string | null } = (
        await as(t, roles.admin, { method: 'GET', url })
      ).json();
      seen.push(...body.logs.map((l) => l.id));
      cursor = body.nextCursor;
      // New rows arrive between pages (these requests log nothing themselves for an admin; add some).
      await t.database.db.execute(
        sql`insert into security_logs (event_type, event_description, severity) values ('test_insert', 'pendant', 'low')`,
      );
      pages++;
    } while (cursor && pages < 100);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(before + 30);
    // Users too.
    const userIds: string[] = [];
    cursor = null;
    do {
      const body: { users: Array<{ id: string }>; nextCursor: string | null } = (
        await as(t, roles.super_admin, {
          method: 'GET',
          url: `/api/admin/users?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        })
      ).json();
      userIds.push(...body.users.map((u) => u.id));
      cursor = body.nextCursor;
      await member(t);
    } while (cursor && userIds.length < 500);
    expect(new Set(userIds).size).toBe(userIds.length);
    expect(userIds).toContain(roles.user.id);
  });

  it('counts the log exactly up to 10 000 rows, then says 10 001 (shown as 10 000+)', async () => {
    await t.database.db.execute(sql`insert into security_logs (event_type, event_description, severity)
      select 'test_bulk', 'n°' || g, 'critical' from generate_series(1, 10050) g`);
    const body = (
      await as(t, roles.admin, { method: 'GET', url: '/api/admin/security-logs?severity=critical&limit=1' })
    ).json();
    expect(body.total).toBe(10_001);
    expect(adminCount(body.total)).toBe('10 000+');
    const typed = (
      await as(t, roles.admin, { method: 'GET', url: '/api/admin/security-logs?eventType=admin_access&limit=1' })
    ).json();
    expect(typed.total).toBeLessThan(100);
    expect(adminCount(typed.total)).toBe(String(typed.total));
  });

  it('filters the log by severity and event type, and refuses a forged cursor', async () => {
    const high = (await as(t, roles.admin, { method: 'GET', url: '/api/admin/security-logs?severity=high' })).json();
    expect(high.logs.length).toBeGreaterThan(0);
    expect(high.logs.every((l: { severity: string }) => l.severity === 'high')).toBe(true);
    const typed = (
      await as(t, roles.admin, { method: 'GET', url: '/api/admin/security-logs?eventType=admin_access' })
    ).json();
    expect(typed.logs.every((l: { eventType: string }) => l.eventType === 'admin_access')).toBe(true);
    expect((await as(t, roles.admin, { method: 'GET', url: '/api/admin/security-logs?cursor=abc' })).statusCode).toBe(
      400,
    );
    expect(
      (await as(t, roles.admin, { method: 'GET', url: '/api/admin/security-logs?severity=grave' })).statusCode,
    ).toBe(400);
  });

  it('lets only the super_admin change roles, with an audit entry naming actor, target and reason', async () => {
    const target = await member(t);
    const url = `/api/admin/users/${target.id}/role`;
    expect((await as(t, roles.admin, { method: 'PUT', url, payload: { role: 'moderator' } })).statusCode).toBe(403);
    const res = await as(t, roles.super_admin, { method: 'PUT', url, payload: { role: 'moderator' } });
    expect(res.json()).toEqual({ userId: target.id, role: 'moderator' });
    expect((await call(t, { method: 'GET', url: '/api/auth/role', token: target.token })).json().role).toBe(
      'moderator',
    );
    const [entry] = (
      await t.database.db.execute(
        sql`select user_id, target_id, reason, event_type from security_logs where target_id = ${target.id} and event_type = 'role_change'`,
      )
    ).rows;
    expect(entry).toEqual({
      user_id: roles.super_admin.id,
      target_id: target.id,
      reason: 'user → moderator',
      event_type: 'role_change',
    });
    expect((await as(t, roles.super_admin, { method: 'PUT', url, payload: { role: 'user' } })).json().role).toBe(
      'user',
    );
    expect(
      (
        await as(t, roles.super_admin, {
          method: 'PUT',
          url: `/api/admin/users/${roles.super_admin.id}/role`,
          payload: { role: 'user' },
        })
      ).json().error.message,
    ).toBe('Vous ne pouvez pas modifier votre propre rôle');
    expect((await as(t, roles.super_admin, { method: 'PUT', url, payload: { role: 'god' } })).statusCode).toBe(400);
  });

  it('has no endpoint that edits or deletes an audit entry, and the database refuses it too', async () => {
    const [entry] = (await t.database.db.execute(sql`select id from security_logs order by created_at limit 1`))
      .rows as Array<{ id: string }>;
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of [`/api/admin/security-logs/${entry!.id}`, '/api/admin/security-logs']) {
        const res = await as(t, roles.super_admin, { method, url, payload: { eventDescription: 'effacé' } });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    await expect(
      t.database.db.execute(sql`update security_logs set event_description = 'effacé' where id = ${entry!.id}`),
    ).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from security_logs where id = ${entry!.id}`)).rejects.toThrow();
    const [still] = (
      await t.database.db.execute(sql`select event_description from security_logs where id = ${entry!.id}`)
    ).rows as Array<{ event_description: string }>;
    expect(still!.event_description).not.toBe('effacé');
  });

  it('keeps the log entries of a deleted account (its id set to null)', async () => {
    const gone = await member(t);
    await publish(t, gone.token);
    await as(t, gone, { method: 'POST', url: '/api/admin/visit' });
    await t.database.db.execute(sql`delete from users where id = ${gone.id}`);
    const rows = (
      await t.database.db.execute(
        sql`select user_id from security_logs where event_type = 'permission_denied' and event_description like ${'%visit%'} and user_id is null`,
      )
    ).rows;
    expect(rows.length).toBeGreaterThan(0);
  });
});
