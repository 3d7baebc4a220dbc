import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { REPORT_REASONS } from '@moodmap/core';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { expire, member, publish, SAINT_DENIS, type PostFields } from './fixtures.ts';

describe.each(engines)('post reports on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const report = (token: string, postId: string, payload: unknown) =>
    call(t, { method: 'POST', url: `/api/posts/${postId}/report`, token, payload: payload as Record<string, unknown> });
  async function reportsOf(postId: string) {
    const result = await t.database.db.execute(
      sql`select * from post_reports where post_id = ${postId} order by created_at`,
    );
    return result.rows as Array<Record<string, unknown>>;
  }
  /** A fresh live post, and another member to report it. */
  async function postAndReporter(fields?: PostFields) {
    const author = await member(t);
    const reporter = await member(t);
    return { author, reporter, post: await publish(t, author.token, fields) };
  }

  it('has the six report reasons, with their French labels', () => {
    expect(REPORT_REASONS.map((r) => [r.key, r.label])).toEqual([
      ['spam', 'Spam ou publicité'],
      ['inappropriate', 'Contenu inapproprié'],
      ['harassment', 'Harcèlement'],
      ['fake', 'Fausse information'],
      ['illegal', 'Contenu illégal'],
      ['other', 'Autre motif'],
    ]);
  });

  it('refuses an invalid report with the texts of the form, and stores nothing', async () => {
    const { reporter, post } = await postAndReporter();
    const cases: Array<[unknown, string]> = [
      [{}, 'Veuillez sélectionner un motif'],
      [{ reason: '' }, 'Veuillez sélectionner un motif'],
      [{ reason: 'boring' }, 'Veuillez sélectionner un motif'],
      [{ reason: 'other' }, 'Veuillez préciser le motif du signalement'],
      [{ reason: 'other', details: '   ' }, 'Veuillez préciser le motif du signalement'],
      [{ reason: 'spam', details: 'x'.repeat(501) }, 'Les détails ne doivent pas dépasser 500 caractères'],
      [{ reason: 'other', details: 'x'.repeat(501) }, 'Les détails ne doivent pas dépasser 500 caractères'],
      [{ reason: 'fake', details: '<script>alert(1)</script>' }, 'Contenu non autorisé détecté'],
    ];
    for (const [payload, message] of cases) {
      const res = await report(reporter.token, post.id, payload);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    expect(await reportsOf(post.id)).toHaveLength(0);
    expect((await report('', post.id, { reason: 'spam' })).statusCode).toBe(401);
  });

  it('stores the reason label, the details, the reporter and a snapshot of the post, and logs it', async () => {
    const author = await member(t, 'Auteurice');
    const reporter = await member(t);
    const post = await publish(t, author.token, { category: 'money', content: 'Gagnez 1000 € <b>maintenant</b>' });
    const res = await report(reporter.token, post.id, { reason: 'other', details: '  Arnaque <i>évidente</i>  ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ status: 'reported' });

    const [row] = await reportsOf(post.id);
    expect(row).toMatchObject({
      post_id: post.id,
      post_author_id: author.id,
      reported_by: reporter.id,
      reason_key: 'other',
      reason: 'Autre motif',
      description: 'Arnaque évidente',
      status: 'open',
    });
    const snapshot = typeof row.post_snapshot === 'string' ? JSON.parse(row.post_snapshot) : row.post_snapshot;
    expect(snapshot).toMatchObject({
      content: 'Gagnez 1000 € maintenant',
      category: 'money',
      nickname: 'Auteurice',
      authorUsername: 'Auteurice',
      latitude: SAINT_DENIS.latitude,
      longitude: SAINT_DENIS.longitude,
      imageUrl: null,
      audioUrl: null,
    });
    expect(Date.parse(snapshot.createdAt)).toBe(
      Date.parse((await call(t, { method: 'GET', url: `/api/posts/${post.id}` })).json().post.createdAt),
    );

    const logs = await t.database.db.execute(sql`
      select event_type, severity, event_description from security_logs where user_id = ${reporter.id} and event_type = 'post_reported'`);
    expect(logs.rows).toHaveLength(1);
    expect(logs.rows[0]).toMatchObject({ severity: 'low' });
    expect(String((logs.rows[0] as { event_description: string }).event_description)).toContain(post.id);

    // A reason other than 'other' needs no details; none are stored as null.
    const second = await member(t);
    expect((await report(second.token, post.id, { reason: 'spam' })).statusCode).toBe(201);
    expect((await reportsOf(post.id))[1]).toMatchObject({
      reason_key: 'spam',
      reason: 'Spam ou publicité',
      description: null,
    });
  });

  it('keeps the snapshot after the post is deleted', async () => {
    const { author, reporter, post } = await postAndReporter({ content: 'Bientôt supprimée' });
    expect((await report(reporter.token, post.id, { reason: 'harassment' })).statusCode).toBe(201);
    await call(t, { method: 'DELETE', url: `/api/posts/${post.id}`, token: author.token });
    const rows = await t.database.db.execute(
      sql`select post_id, post_snapshot->>'content' as content from post_reports where reported_by = ${reporter.id}`,
    );
    expect(rows.rows).toEqual([{ post_id: null, content: 'Bientôt supprimée' }]);
  });

  it("refuses reporting one's own post", async () => {
    const author = await member(t);
    const post = await publish(t, author.token);
    const res = await report(author.token, post.id, { reason: 'spam' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual({
      code: 'report_own_post',
      message: 'Vous ne pouvez pas signaler votre propre publication',
    });
    expect(await reportsOf(post.id)).toHaveLength(0);
  });

  it('refuses a second report of the same post by the same person, even sent at once', async () => {
    const { reporter, post } = await postAndReporter();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => report(reporter.token, post.id, { reason: 'fake' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const later = await report(reporter.token, post.id, { reason: 'spam' });
    expect(later.statusCode).toBe(409);
    expect(later.json().error).toEqual({
      code: 'report_duplicate',
      message: 'Vous avez déjà signalé cette publication',
    });
    expect(await reportsOf(post.id)).toHaveLength(1);
  });

  it('refuses a report of an expired or missing post', async () => {
    const { reporter, post } = await postAndReporter();
    await expire(t, post.id);
    for (const id of [post.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await report(reporter.token, id, { reason: 'spam' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Publication introuvable');
    }
    expect(await reportsOf(post.id)).toHaveLength(0);
  });
});
