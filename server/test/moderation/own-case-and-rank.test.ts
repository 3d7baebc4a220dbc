/**
 * Who may decide what: no staff member decides a case about themselves (a report on their own
 * post, an appeal they filed), and warning, suspending, banning or changing a role needs a role
 * strictly above the target's.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { StaffRole } from '@moodmap/core';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, publish, type Member } from '../interactions/fixtures.ts';
import { as, staff } from './fixtures.ts';

const OWN_CASE = {
  code: 'mod_own_case',
  message: 'Vous ne pouvez pas statuer sur un dossier qui vous concerne : un autre modérateur doit le traiter',
};
const RANK = {
  code: 'mod_rank_refused',
  message: 'Vous ne pouvez pas sanctionner un membre dont le rôle est égal ou supérieur au vôtre',
};

describe.each(engines)('deciding one’s own case, and rank, on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const decide = (who: Member, postId: string, payload: Record<string, unknown>) =>
    as(t, who, { method: 'POST', url: `/api/moderation/posts/${postId}/decision`, payload });
  /** `author`'s live post, reported once by a member. */
  async function reportedPostOf(author: Member) {
    const post = await publish(t, author.token, { content: 'Texte signalé' });
    const reporter = await member(t);
    const res = await call(t, {
      method: 'POST',
      url: `/api/posts/${post.id}/report`,
      token: reporter.token,
      payload: { reason: 'harassment' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return post;
  }
  const reportStatuses = async (postId: string) =>
    (await t.database.db.execute(sql`select status from post_reports where post_id = ${postId}`)).rows.map(
      (r) => r.status,
    );
  const account = async (userId: string) =>
    (await t.database.db.execute(sql`select banned_at, suspended_until from users where id = ${userId}`)).rows[0];

  it('refuses a moderator dismissing the reports on their own post, and changes nothing', async () => {
    const mod = await staff(t, 'moderator');
    const post = await reportedPostOf(mod);
    const res = await decide(mod, post.id, { action: 'dismiss', reason: 'no_violation' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual(OWN_CASE);
    expect(await reportStatuses(post.id)).toEqual(['open']);
    expect(
      (await t.database.db.execute(sql`select count(*)::int as n from moderation_decisions where post_id = ${post.id}`))
        .rows[0],
    ).toEqual({ n: 0 });
    // Another moderator can.
    const other = await staff(t, 'moderator');
    expect((await decide(other, post.id, { action: 'dismiss', reason: 'no_violation' })).statusCode).toBe(200);
  });

  it('refuses a moderator deciding their own appeal, and changes nothing', async () => {
    const mod = await staff(t, 'moderator');
    const admin = await staff(t, 'admin');
    const post = await reportedPostOf(mod);
    const warned = await decide(admin, post.id, { action: 'warn', reason: 'harassment' });
    expect(warned.statusCode, warned.body).toBe(200);
    const decisionId = warned.json().decision.id;
    const filed = await as(t, mod, {
      method: 'POST',
      url: `/api/moderation/decisions/${decisionId}/appeal`,
      payload: { statement: 'Je conteste' },
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const appealId = filed.json().appeal.id;

    const res = await as(t, mod, {
      method: 'POST',
      url: `/api/moderation/appeals/${appealId}/decision`,
      payload: { outcome: 'reverse' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual(OWN_CASE);
    expect(
      (await t.database.db.execute(sql`select status, decided_by from moderation_appeals where id = ${appealId}`))
        .rows[0],
    ).toEqual({ status: 'open', decided_by: null });
    expect(
      (await t.database.db.execute(sql`select reversed_at from moderation_decisions where id = ${decisionId}`)).rows[0],
    ).toEqual({ reversed_at: null });
    expect(
      (await t.database.db.execute(sql`select hidden_state from publications where id = ${post.id}`)).rows[0],
    ).toEqual({ hidden_state: 'removed' });
  });

  const peers: Array<Exclude<StaffRole, 'user'>> = ['super_admin', 'admin', 'moderator'];
  it.each(peers)('refuses a moderator warning, suspending or banning a %s, and changes nothing', async (role) => {
    const mod = await staff(t, 'moderator');
    const target = await staff(t, role);
    const post = await reportedPostOf(target);
    for (const payload of [
      { action: 'ban', reason: 'illegal' },
      { action: 'suspend', reason: 'spam', days: 7 },
      { action: 'warn', reason: 'spam' },
    ]) {
      const res = await decide(mod, post.id, payload);
      expect(res.statusCode, payload.action).toBe(403);
      expect(res.json().error).toEqual(RANK);
    }
    expect(await account(target.id)).toEqual({ banned_at: null, suspended_until: null });
    expect(await reportStatuses(post.id)).toEqual(['open']);
    expect((await call(t, { method: 'GET', url: `/api/posts/${post.id}` })).statusCode).toBe(200);
  });

  it('refuses a super_admin changing another super_admin’s role, and lets them change an admin’s', async () => {
    const boss = await staff(t, 'super_admin');
    const peer = await staff(t, 'super_admin');
    const admin = await staff(t, 'admin');
    const refused = await as(t, boss, {
      method: 'PUT',
      url: `/api/admin/users/${peer.id}/role`,
      payload: { role: 'user' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({
      code: 'admin_role_rank',
      message: "Vous ne pouvez pas modifier le rôle d'un membre dont le rôle est égal ou supérieur au vôtre",
    });
    expect((await call(t, { method: 'GET', url: '/api/auth/role', token: peer.token })).json().role).toBe(
      'super_admin',
    );
    expect(
      (
        await as(t, boss, { method: 'PUT', url: `/api/admin/users/${admin.id}/role`, payload: { role: 'moderator' } })
      ).json(),
    ).toEqual({ userId: admin.id, role: 'moderator' });
  });

  it('lets a moderator ban a member, and an admin ban a moderator', async () => {
    const mod = await staff(t, 'moderator');
    const admin = await staff(t, 'admin');
    const plain = await member(t);
    const banned = await decide(mod, (await reportedPostOf(plain)).id, { action: 'ban', reason: 'illegal' });
    expect(banned.statusCode, banned.body).toBe(200);
    expect((await account(plain.id))?.banned_at).not.toBeNull();
    const other = await staff(t, 'moderator');
    expect(
      (await decide(admin, (await reportedPostOf(other)).id, { action: 'ban', reason: 'illegal' })).statusCode,
    ).toBe(200);
    expect((await account(other.id))?.banned_at).not.toBeNull();
  });
});
