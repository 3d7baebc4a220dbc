/**
 * 'Télécharger mes données': the archive is asked for, prepared in the background, announced by
 * e-mail, downloaded by its owner only, one request a day, and gone after 7 days. It holds each
 * kind of the person's data and their media, and no other member's private data.
 */
import { sql } from 'drizzle-orm';
import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { call, createUser, login, type AuthTestApp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { SAINT_DENIS, publish, type Member } from '../interactions/fixtures.ts';
import { multipart, photo } from '../media/fixtures.ts';

const DAY = 24 * 3_600_000;

interface Person extends Member {
  email: string;
  password: string;
}

async function person(t: AuthTestApp, nickname: string): Promise<Person> {
  const user = await createUser(t, { metadata: { nickname } });
  const session = await login(t, user.email, user.password);
  return {
    id: user.id,
    email: user.email,
    password: user.password,
    token: session.accessToken,
    username: session.user.profile.username,
  };
}

const ask = (t: AuthTestApp, who: Member) => call(t, { method: 'POST', url: '/api/account/export', token: who.token });
const state = async (t: AuthTestApp, who: Member) =>
  (await call(t, { method: 'GET', url: '/api/account/export', token: who.token })).json();
const download = (t: AuthTestApp, who: Member) =>
  call(t, { method: 'GET', url: '/api/account/export/download', token: who.token });
const ready = (t: AuthTestApp, who: Member) =>
  expect.poll(async () => (await state(t, who)).status, { timeout: 30_000 }).toBe('ready');

async function upload(t: AuthTestApp, who: Member, url: string) {
  const form = multipart([
    { name: 'file', file: { filename: 'plage.jpg', contentType: 'image/jpeg', body: await photo(320, 240) } },
  ]);
  const res = await call(t, { method: 'POST', url, token: who.token, payload: form.payload, headers: form.headers });
  expect(res.statusCode).toBeLessThan(300);
  return res.json();
}

describe.each(engines)('data archive on %s', (engine) => {
  const t = suiteAuthApp(engine);

  /** A member with something of every kind, and the others around them. */
  async function world() {
    const owner = await person(t, 'Léa');
    const friend = await person(t, 'Paul');
    const blocked = await person(t, 'Zoé');
    const stranger = await person(t, 'Marc');
    const moderator = await person(t, 'Modo');
    await upload(t, owner, '/api/profiles/me/photo');
    const image = await upload(t, owner, '/api/uploads/post-image');
    const created = await call(t, {
      method: 'POST',
      url: '/api/posts',
      token: owner.token,
      payload: { category: 'happy', content: 'Ma plage', ...SAINT_DENIS, imageUploadId: image.uploadId },
    });
    expect(created.statusCode).toBe(201);
    const post = created.json().post as { id: string; imageUrl: string };
    const friendPost = await publish(t, friend.token, { content: 'Chez Paul' });
    expect(
      (await call(t, { method: 'POST', url: `/api/posts/${friendPost.id}/like`, token: owner.token })).statusCode,
    ).toBeLessThan(300);
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${friendPost.id}/comments`,
          token: owner.token,
          payload: { content: 'Super endroit' },
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${friendPost.id}/report`,
          token: owner.token,
          payload: { reason: 'spam' },
        })
      ).statusCode,
    ).toBe(201);
    // Someone else's report about the owner's post, and their block of the owner: not the owner's data.
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${post.id}/report`,
          token: stranger.token,
          payload: { reason: 'harassment' },
        })
      ).statusCode,
    ).toBe(201);
    expect((await call(t, { method: 'PUT', url: `/api/blocks/${owner.id}`, token: stranger.token })).statusCode).toBe(
      200,
    );
    expect((await call(t, { method: 'PUT', url: `/api/blocks/${blocked.id}`, token: owner.token })).statusCode).toBe(
      200,
    );
    const conversation = (
      await call(t, { method: 'POST', url: '/api/conversations', token: owner.token, payload: { userId: friend.id } })
    ).json().conversation.id as string;
    for (const [who, content] of [
      [owner, 'Salut Paul'],
      [friend, 'Salut Léa'],
    ] as const) {
      expect(
        (
          await call(t, {
            method: 'POST',
            url: `/api/conversations/${conversation}/messages`,
            token: who.token,
            payload: { content },
          })
        ).statusCode,
      ).toBe(201);
    }
    const { db } = t.database;
    await db.execute(sql`insert into pulse_purchases (user_id, provider, session_id, quantity, amount_cents, status, paid_at)
      values (${owner.id}, 'dev', ${`cs_${owner.id}`}, 3, 297, 'paid', now())`);
    const decision = (
      await db.execute(sql`insert into moderation_decisions (post_id, author_id, moderator_id, action, reason_key, post_snapshot, appeal_until)
      values (${post.id}, ${owner.id}, ${moderator.id}, 'warn', 'spam', '{}'::jsonb, now() + interval '14 days') returning id`)
    ).rows[0].id;
    await db.execute(
      sql`insert into moderation_notices (user_id, kind, decision_id) values (${owner.id}, 'statement', ${decision})`,
    );
    await db.execute(sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth, label)
      values (${owner.id}, ${`https://push.example/${owner.id}`}, 'cle', 'secret', 'Firefox sur Linux')`);
    return { owner, friend, blocked, stranger, moderator, post, friendPost, conversation, decision };
  }

  it("is prepared in the background, announced by e-mail, and holds each kind of the person's data and their media", async () => {
    const w = await world();
    const { owner } = w;
    expect((await state(t, owner)).status).toBe('none');
    const asked = await ask(t, owner);
    expect(asked.statusCode).toBe(202);
    expect(asked.json().status).toBe('pending');
    await ready(t, owner);

    const mails = await t.app.ctx.mailer.outbox?.list({ to: owner.email });
    expect(mails?.map((m) => m.subject)).toContain(MESSAGES.mail_export_subject);

    const res = await download(t, owner);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="moodmap-donnees-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const json = (name: string) => JSON.parse(strFromU8(files[name]));

    expect(strFromU8(files['README.txt'])).toContain('publications.json : vos publications');
    expect(json('profil.json').account).toMatchObject({ id: owner.id, email: owner.email });
    expect(json('profil.json').account).not.toHaveProperty('passwordHash');
    expect(json('profil.json').profile.username).toBe(owner.username);
    expect(json('consentements.json').termsOfUse.termsVersion).toEqual(expect.any(String));
    expect(json('publications.json').map((p: { id: string }) => p.id)).toEqual([w.post.id]);
    expect(json('commentaires.json').map((c: { content: string }) => c.content)).toEqual(['Super endroit']);
    expect(json('likes.json').map((l: { publicationId: string }) => l.publicationId)).toEqual([w.friendPost.id]);
    const [conversation] = json('messages.json');
    expect(conversation).toMatchObject({ id: w.conversation, with: { id: w.friend.id, username: w.friend.username } });
    expect(conversation.messages.map((m: { content: string; fromMe: boolean }) => [m.content, m.fromMe])).toEqual([
      ['Salut Paul', true],
      ['Salut Léa', false],
    ]);
    expect(json('signalements.json').map((r: { postId: string }) => r.postId)).toEqual([w.friendPost.id]);
    expect(json('achats.json')).toMatchObject([{ quantity: 3, amountCents: 297, status: 'paid' }]);
    expect(json('moderation.json').decisions.map((d: { id: string }) => d.id)).toEqual([w.decision]);
    expect(json('avis.json').map((n: { decisionId: string }) => n.decisionId)).toEqual([w.decision]);
    expect(json('appareils-notifications.json')).toMatchObject([{ label: 'Firefox sur Linux' }]);
    expect(json('blocages.json').map((b: { blockedId: string }) => b.blockedId)).toEqual([w.blocked.id]);
    expect(json('sessions.json').length).toBeGreaterThan(0);
    expect(json('journal-securite.json')).toEqual(expect.any(Array));

    // The media: the profile photo and the post's image, byte for byte as stored.
    const profile = json('profil.json').profile;
    for (const url of [profile.profilePhotoUrl, w.post.imageUrl]) {
      const key = t.app.ctx.storage.keyFromUrl(url);
      expect(key).not.toBeNull();
      const stored = await t.app.ctx.storage.read(key ?? '');
      expect(Buffer.from(files[`media/${key}`]).equals(stored ?? Buffer.alloc(0))).toBe(true);
    }

    // No other member's private data: no one else's e-mail, no reporter, no blocker, no moderator.
    const everything = Object.entries(files)
      .filter(([name]) => name.endsWith('.json'))
      .map(([, bytes]) => strFromU8(bytes))
      .join('\n');
    for (const other of [
      w.friend.email,
      w.blocked.email,
      w.stranger.email,
      w.stranger.id,
      w.moderator.id,
      w.moderator.email,
    ]) {
      expect(everything).not.toContain(other);
    }
  });

  it('is downloaded by its owner only, signed in', async () => {
    const owner = await person(t, 'Inès');
    const other = await person(t, 'Hugo');
    expect((await ask(t, owner)).statusCode).toBe(202);
    await ready(t, owner);
    const theirs = await download(t, other);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error).toEqual({ code: 'export_not_found', message: MESSAGES.export_not_found });
    expect((await call(t, { method: 'GET', url: '/api/account/export/download' })).statusCode).toBe(401);
    expect((await state(t, other)).status).toBe('none');
    expect((await download(t, owner)).statusCode).toBe(200);
  });

  it('is asked for once a day, never twice at once', async () => {
    const owner = await person(t, 'Chloé');
    expect((await ask(t, owner)).statusCode).toBe(202);
    await ready(t, owner);
    const again = await ask(t, owner);
    expect(again.statusCode).toBe(429);
    expect(again.json().error).toEqual({
      code: 'export_rate_limited',
      message: 'Vous avez déjà demandé vos données il y a moins de 24 heures. Réessayez dans 24 h.',
    });
    const retryAfter = Number(again.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect((await state(t, owner)).nextRequestAt).not.toBeNull();

    // One still being prepared: a second request waits for it.
    const busy = await person(t, 'Nina');
    await t.database.db.execute(
      sql`insert into data_exports (user_id, status, requested_at) values (${busy.id}, 'pending', now())`,
    );
    const twice = await ask(t, busy);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toEqual({ code: 'export_pending', message: MESSAGES.export_pending });
  });

  it('expires after 7 days: its file is dropped and a new one may be asked for', async () => {
    const owner = await person(t, 'Lucas');
    expect((await ask(t, owner)).statusCode).toBe(202);
    await ready(t, owner);
    const { expiresAt, readyAt } = await state(t, owner);
    expect(Date.parse(expiresAt) - Date.parse(readyAt)).toBe(7 * DAY);

    t.clock.advance(7 * DAY + 60_000);
    const fresh = { ...owner, token: (await login(t, owner.email, owner.password)).accessToken };
    expect((await state(t, fresh)).status).toBe('expired');
    const gone = await download(t, fresh);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toEqual({ code: 'export_expired', message: MESSAGES.export_expired });
    const row = (
      await t.database.db.execute(
        sql`select status, archive is null as dropped from data_exports where user_id = ${owner.id}`,
      )
    ).rows[0];
    expect(row).toEqual({ status: 'expired', dropped: true });

    expect((await ask(t, fresh)).statusCode).toBe(202);
    await ready(t, fresh);
    expect((await download(t, fresh)).statusCode).toBe(200);
  });
});
