/**
 * Notices of illegal content by anyone (DSA Art. 16): a visitor's counts only once its e-mailed
 * link is confirmed, then joins the reports queue marked as such; the notifier gets a receipt
 * and the moderator's decision with its reasons; limits per address and per e-mail; hostile input.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { call, freshEmail, freshIp, mailsTo, waitForMail, type AuthTestApp } from '../helpers/auth.ts';
import { users } from '../../src/db/schema.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, publish, type Member } from '../interactions/fixtures.ts';
import { as, staff } from './fixtures.ts';

const EXPLANATION = 'Cette publication diffuse une incitation à la haine, interdite par la loi.';

function body(postId: string, fields: Record<string, unknown> = {}) {
  return {
    explanation: EXPLANATION,
    location: `http://moodmap.test/?post=${postId}`,
    name: 'Camille Durand',
    email: freshEmail('camille'),
    goodFaith: true,
    ...fields,
  };
}

const notify = (t: AuthTestApp, payload: unknown, options: { ip?: string; token?: string } = {}) =>
  call(t, { method: 'POST', url: '/api/dsa-notices', payload: payload as Record<string, unknown>, ...options });

/** The token of the confirmation link mailed to `email`. */
async function mailedToken(t: AuthTestApp, email: string): Promise<string> {
  const mail = await waitForMail(t, email, MESSAGES.mail_dsa_confirm_subject);
  const token = /\/signalement-illicite\/confirmer\?token=([\w-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no link in ${mail.text}`);
  return token;
}

describe.each(engines)('notices of illegal content on %s', (engine) => {
  const t = suiteAuthApp(engine);
  let mod: Member;
  beforeAll(async () => {
    mod = await staff(t, 'moderator');
  });

  const queueGroup = async (postId: string) => {
    const res = await as(t, mod, { method: 'GET', url: '/api/moderation/queue' });
    expect(res.statusCode).toBe(200);
    const groups = res.json().reports as Array<{
      postId: string;
      postState: string;
      count: number;
      reasons: Array<{ key: string }>;
      reporters: unknown[];
      dsaNotices: Array<{ name: string; explanation: string; location: string }>;
    }>;
    return groups.find((g) => g.postId === postId);
  };
  const livePost = async () => {
    const author = await member(t);
    return publish(t, author.token, { content: 'Contenu notifié' });
  };

  it("keeps a visitor's notice out of the queue until its e-mailed link is confirmed, then queues it marked as a DSA notice", async () => {
    const post = await livePost();
    const payload = body(post.id);
    const res = await notify(t, payload);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ status: 'confirm' });
    expect(await queueGroup(post.id)).toBeUndefined();
    expect(
      await mailsTo(t, payload.email).then((m) => m.filter((x) => x.subject === MESSAGES.mail_dsa_receipt_subject)),
    ).toHaveLength(0);

    const token = await mailedToken(t, payload.email);
    const confirmed = await call(t, { method: 'POST', url: '/api/dsa-notices/confirm', payload: { token } });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ status: 'received' });

    const group = await queueGroup(post.id);
    expect(group).toMatchObject({ count: 1, postState: 'live', reporters: [], reasons: [{ key: 'illegal' }] });
    expect(group?.dsaNotices).toEqual([
      { name: 'Camille Durand', explanation: EXPLANATION, location: payload.location },
    ]);
    const receipt = await waitForMail(t, payload.email, MESSAGES.mail_dsa_receipt_subject);
    expect(receipt.text).toContain(payload.location);

    // The link serves once.
    const again = await call(t, { method: 'POST', url: '/api/dsa-notices/confirm', payload: { token } });
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toEqual({ code: 'dsa_confirm_invalid', message: MESSAGES.dsa_confirm_invalid });
    expect((await queueGroup(post.id))?.count).toBe(1);
  });

  it("mails the moderator's decision with its reasons to the notifier", async () => {
    const post = await livePost();
    const payload = body(post.id);
    expect((await notify(t, payload)).statusCode).toBe(201);
    await call(t, {
      method: 'POST',
      url: '/api/dsa-notices/confirm',
      payload: { token: await mailedToken(t, payload.email) },
    });
    const decided = await as(t, mod, {
      method: 'POST',
      url: `/api/moderation/posts/${post.id}/decision`,
      payload: { action: 'remove', reason: 'illegal', note: 'Propos haineux' },
    });
    expect(decided.statusCode).toBe(200);
    const mail = await waitForMail(t, payload.email, MESSAGES.mail_dsa_decision_subject);
    expect(mail.text).toContain(`Après examen, la publication ${payload.location} a été retirée.`);
    expect(mail.text).toContain('Motif de la décision : ');
    expect(mail.text).toContain('Précisions du modérateur : Propos haineux');
    expect(await queueGroup(post.id)).toBeUndefined();
  });

  it("queues a member's notice from their own confirmed address at once, without hiding the post", async () => {
    const post = await livePost();
    const notifier = await member(t);
    const [row] = await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, notifier.id));
    const res = await notify(t, body(post.id, { email: row!.email }), { token: notifier.token });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ status: 'received' });
    expect(await queueGroup(post.id)).toMatchObject({ count: 1, postState: 'live' });
    await waitForMail(t, row!.email, MESSAGES.mail_dsa_receipt_subject);
  });

  it('refuses a flood from one address, and one aimed at one e-mail address, with a French 429', async () => {
    const post = await livePost();
    const ip = freshIp();
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await notify(t, body(post.id), { ip })).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 201)).toBe(true);
    const blocked = await notify(t, body(post.id), { ip });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().error.code).toBe('dsa_rate_limited');
    expect(blocked.json().error.message).toMatch(
      /^Trop de notifications envoyées\. Veuillez réessayer dans \d+ minutes\.$/,
    );

    const email = freshEmail('cible');
    const perAddress: number[] = [];
    for (let i = 0; i < 6; i++) perAddress.push((await notify(t, body(post.id, { email }))).statusCode);
    expect(perAddress).toEqual([201, 201, 201, 201, 201, 429]);
    expect(await mailsTo(t, email)).toHaveLength(5);
  });

  it('refuses hostile or incomplete input with a French 400', async () => {
    const post = await livePost();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ explanation: 'x'.repeat(5000) }, 'L’explication ne doit pas dépasser 2000 caractères'],
      [{ explanation: 'Illicite\u0000' }, MESSAGES.bad_request],
      [{ name: 'Camille \udfff' }, MESSAGES.text_malformed],
      [{ explanation: '   ' }, MESSAGES.dsa_explanation_required],
      [{ location: 'quelque part' }, MESSAGES.dsa_location_invalid],
      [{ name: '' }, MESSAGES.dsa_name_required],
      [{ email: 'pas-une-adresse' }, MESSAGES.email_invalid],
      [{ goodFaith: false }, MESSAGES.dsa_good_faith_required],
    ];
    for (const [fields, message] of cases) {
      const res = await notify(t, body(post.id, fields));
      expect(res.statusCode, JSON.stringify(fields).slice(0, 80)).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    // A body past the API's size limit is refused before it is read.
    expect((await notify(t, body(post.id, { explanation: 'x'.repeat(2_000_000) }))).statusCode).toBe(413);
    expect(
      (await call(t, { method: 'POST', url: '/api/dsa-notices/confirm', payload: { token: 'x'.repeat(10_000) } }))
        .statusCode,
    ).toBe(400);
    expect(await queueGroup(post.id)).toBeUndefined();
  });
});
