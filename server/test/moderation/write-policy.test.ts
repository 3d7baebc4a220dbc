/**
 * The write policy, route by route: what a suspended member may still do (read, delete their own
 * content, report, block, manage push, appeal) and what they may not (publish, comment, edit a
 * comment, like, message, change their profile, buy), what a banned one may do (appeal only),
 * and that writes wait for the terms in force to be accepted while reading does not.
 */
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { termsAt } from '@moodmap/core';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { multipart, png } from '../media/fixtures.ts';
import { member, publish, SAINT_DENIS, type Member } from '../interactions/fixtures.ts';
import { as, staff } from './fixtures.ts';

const SUSPENDED =
  /^Votre compte est suspendu jusqu'au \d{1,2} \S+ \d{4} à \d{2}:\d{2}\. Vous ne pouvez ni publier, ni commenter, ni envoyer de message\.$/;
const TERMS_MESSAGE = "Vous devez accepter les conditions d'utilisation en vigueur pour continuer.";

const pushSubscription = () => ({
  endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
  expirationTime: null,
  keys: {
    p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  },
});

describe.each(engines)('write policy on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const one = async (query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows[0];
  const count = async (query: ReturnType<typeof sql>) => Number(((await one(query)) as { n: number }).n);

  describe('a suspended member', () => {
    let author: Member;
    let other: Member;
    let stranger: Member;
    let otherPostId: string;
    let ownPostId: string;
    let olderCommentId: string;
    let doomedCommentId: string;
    let conversationId: string;
    let deviceId: string;
    let decisionId: string;

    beforeAll(async () => {
      const moderator = await staff(t, 'moderator');
      author = await member(t);
      other = await member(t);
      stranger = await member(t);
      const reporter = await member(t);
      otherPostId = (await publish(t, other.token)).id;
      ownPostId = (await publish(t, author.token, { latitude: SAINT_DENIS.latitude - 0.01 })).id;
      const comment = (content: string) =>
        call(t, {
          method: 'POST',
          url: `/api/posts/${otherPostId}/comments`,
          token: author.token,
          payload: { content },
        });
      olderCommentId = (await comment('Mon ancien commentaire')).json().comment.id;
      doomedCommentId = (await comment('À supprimer')).json().comment.id;
      conversationId = (
        await call(t, { method: 'POST', url: '/api/conversations', token: author.token, payload: { userId: other.id } })
      ).json().conversation.id;
      const device = await call(t, {
        method: 'POST',
        url: '/api/push/subscriptions',
        token: author.token,
        payload: pushSubscription(),
      });
      expect(device.statusCode, device.body).toBe(201);
      deviceId = device.json().device.id;
      const own = await call(t, {
        method: 'POST',
        url: `/api/posts/${ownPostId}/report`,
        token: reporter.token,
        payload: { reason: 'harassment', details: 'Insultes' },
      });
      expect(own.statusCode, own.body).toBe(201);
      const decided = await as(t, moderator, {
        method: 'POST',
        url: `/api/moderation/posts/${ownPostId}/decision`,
        payload: { action: 'suspend', reason: 'harassment', days: 7 },
      });
      expect(decided.statusCode, decided.body).toBe(200);
      decisionId = decided.json().decision.id;
    });

    interface Case {
      name: string;
      request: () => Parameters<typeof call>[1] | Promise<Parameters<typeof call>[1]>;
      /** What it stores, read before and after: unchanged when refused. */
      stored?: () => Promise<unknown>;
      /** The status an allowed write answers. */
      allowed?: number;
    }
    /** A multipart body with one PNG, as the upload routes take. */
    const image = async () => {
      const form = multipart([
        { name: 'file', file: { filename: 'moi.png', contentType: 'image/png', body: await png(64, 64) } },
      ]);
      return { payload: form.payload, headers: form.headers };
    };

    const refused: Case[] = [
      {
        name: 'publish a post',
        request: () => ({
          method: 'POST',
          url: '/api/posts',
          payload: { category: 'happy', content: 'Encore moi', ...SAINT_DENIS, latitude: SAINT_DENIS.latitude - 0.03 },
        }),
        stored: () => count(sql`select count(*)::int as n from publications where user_id = ${author.id}`),
      },
      {
        name: 'upload a post image',
        request: async () => ({ method: 'POST', url: '/api/uploads/post-image', ...(await image()) }),
        stored: () => count(sql`select count(*)::int as n from uploads where user_id = ${author.id}`),
      },
      {
        name: 'upload a voice message',
        request: () => ({ method: 'POST', url: '/api/uploads/voice' }),
        stored: () => count(sql`select count(*)::int as n from uploads where user_id = ${author.id}`),
      },
      {
        name: 'comment',
        request: () => ({ method: 'POST', url: `/api/posts/${otherPostId}/comments`, payload: { content: 'Coucou' } }),
        stored: () => count(sql`select count(*)::int as n from comments where user_id = ${author.id}`),
      },
      {
        name: 'edit an older comment',
        request: () => ({
          method: 'PATCH',
          url: `/api/comments/${olderCommentId}`,
          payload: { content: 'Réécrit pendant la suspension' },
        }),
        stored: () => one(sql`select content from comments where id = ${olderCommentId}`),
      },
      {
        name: 'like',
        request: () => ({ method: 'POST', url: `/api/posts/${otherPostId}/like` }),
        stored: () => count(sql`select count(*)::int as n from likes where user_id = ${author.id}`),
      },
      {
        name: 'change their bio',
        request: () => ({ method: 'PATCH', url: '/api/profiles/me', payload: { bio: 'Nouvelle bio' } }),
        stored: () => one(sql`select bio from profiles where id = ${author.id}`),
      },
      {
        name: 'change their photo',
        request: async () => ({ method: 'POST', url: '/api/profiles/me/photo', ...(await image()) }),
        stored: () => one(sql`select profile_photo_url from profiles where id = ${author.id}`),
      },
      {
        name: 'open a conversation',
        request: () => ({ method: 'POST', url: '/api/conversations', payload: { userId: stranger.id } }),
        stored: () =>
          count(
            sql`select count(*)::int as n from conversations where ${author.id} in (participant1_id, participant2_id)`,
          ),
      },
      {
        name: 'send a message',
        request: () => ({
          method: 'POST',
          url: `/api/conversations/${conversationId}/messages`,
          payload: { content: 'Salut' },
        }),
        stored: () => count(sql`select count(*)::int as n from messages where sender_id = ${author.id}`),
      },
      {
        name: 'buy Pulse credits',
        request: () => ({ method: 'POST', url: '/api/pulse/checkout', payload: { quantity: 5 } }),
        stored: () => count(sql`select count(*)::int as n from pulse_purchases where user_id = ${author.id}`),
      },
    ];

    it.each(refused)('may not $name (403, French message, nothing stored)', async ({ request, stored }) => {
      const before = await stored?.();
      const res = await call(t, { ...(await request()), token: author.token });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe('account_suspended');
      expect(res.json().error.message).toMatch(SUSPENDED);
      expect(await stored?.()).toEqual(before);
    });

    const allowed: Case[] = [
      {
        name: 'read the map and their conversations',
        request: () => ({ method: 'GET', url: `/api/conversations/${conversationId}/messages` }),
        allowed: 200,
      },
      {
        name: 'report a post',
        request: () => ({ method: 'POST', url: `/api/posts/${otherPostId}/report`, payload: { reason: 'spam' } }),
        allowed: 201,
        stored: () => count(sql`select count(*)::int as n from post_reports where reported_by = ${author.id}`),
      },
      { name: 'block someone', request: () => ({ method: 'PUT', url: `/api/blocks/${stranger.id}` }), allowed: 200 },
      {
        name: 'unblock someone',
        request: () => ({ method: 'DELETE', url: `/api/blocks/${stranger.id}` }),
        allowed: 200,
      },
      {
        name: 'mark a conversation read',
        request: () => ({ method: 'POST', url: `/api/conversations/${conversationId}/read` }),
        allowed: 200,
      },
      {
        name: 'mark their notices read',
        request: () => ({ method: 'POST', url: '/api/moderation/notices/read' }),
        allowed: 200,
      },
      {
        name: 'register a push device',
        request: () => ({ method: 'POST', url: '/api/push/subscriptions', payload: pushSubscription() }),
        allowed: 201,
      },
      {
        name: 'change a push device',
        request: () => ({ method: 'PATCH', url: `/api/push/subscriptions/${deviceId}`, payload: { preview: false } }),
        allowed: 200,
      },
      {
        name: 'remove a push device',
        request: () => ({ method: 'DELETE', url: `/api/push/subscriptions/${deviceId}` }),
        allowed: 200,
      },
      {
        name: 'delete their own comment',
        request: () => ({ method: 'DELETE', url: `/api/comments/${doomedCommentId}` }),
        allowed: 200,
        stored: () => count(sql`select count(*)::int as n from comments where id = ${doomedCommentId}`),
      },
      {
        name: 'delete their own post',
        request: () => ({ method: 'DELETE', url: `/api/posts/${ownPostId}` }),
        allowed: 204,
        stored: () => count(sql`select count(*)::int as n from publications where id = ${ownPostId}`),
      },
      {
        name: 'remove their photo',
        request: () => ({ method: 'DELETE', url: '/api/profiles/me/photo' }),
        allowed: 200,
      },
      {
        name: 'appeal the decision',
        request: () => ({
          method: 'POST',
          url: `/api/moderation/decisions/${decisionId}/appeal`,
          payload: { statement: 'Je conteste.' },
        }),
        allowed: 201,
        stored: () => count(sql`select count(*)::int as n from moderation_appeals where decision_id = ${decisionId}`),
      },
    ];

    it.each(allowed)('may $name', async ({ request, allowed: status, stored }) => {
      const before = await stored?.();
      const res = await call(t, { ...(await request()), token: author.token });
      expect(res.statusCode, res.body).toBe(status);
      if (stored) expect(await stored()).not.toEqual(before);
    });
  });

  describe('a banned member', () => {
    // A ban ends the member's sessions; a token that outlives it still writes nothing.
    it('may appeal, and nothing else', async () => {
      const moderator = await staff(t, 'moderator');
      const banned = await member(t);
      const reporter = await member(t);
      const postId = (await publish(t, banned.token, { latitude: SAINT_DENIS.latitude - 0.04 })).id;
      const commentId = (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${postId}/comments`,
          token: banned.token,
          payload: { content: 'Avant' },
        })
      ).json().comment.id;
      await call(t, {
        method: 'POST',
        url: `/api/posts/${postId}/report`,
        token: reporter.token,
        payload: { reason: 'harassment', details: 'Insultes' },
      });
      const decided = await as(t, moderator, {
        method: 'POST',
        url: `/api/moderation/posts/${postId}/decision`,
        payload: { action: 'remove', reason: 'harassment' },
      });
      expect(decided.statusCode, decided.body).toBe(200);
      await t.database.db.execute(sql`update users set banned_at = now() where id = ${banned.id}`);
      for (const request of [
        { method: 'PATCH', url: `/api/comments/${commentId}`, payload: { content: 'Après' } },
        { method: 'DELETE', url: `/api/comments/${commentId}` },
        { method: 'POST', url: `/api/posts/${postId}/report`, payload: { reason: 'spam' } },
      ] as const) {
        const res = await call(t, { ...request, token: banned.token });
        expect(res.statusCode, `${request.method} ${request.url}`).toBe(403);
        expect(res.json().error).toEqual({
          code: 'account_banned',
          message: 'Votre compte a été banni pour non-respect des règles de la communauté.',
        });
      }
      expect(await one(sql`select content from comments where id = ${commentId}`)).toEqual({ content: 'Avant' });
      const appeal = await call(t, {
        method: 'POST',
        url: `/api/moderation/decisions/${decided.json().decision.id}/appeal`,
        token: banned.token,
        payload: { statement: 'Je conteste.' },
      });
      expect(appeal.statusCode, appeal.body).toBe(201);
    });
  });

  describe('terms of use', () => {
    async function withoutCurrentTerms(version: string | null) {
      const writer = await member(t);
      const other = await member(t);
      const postId = (await publish(t, other.token, { latitude: SAINT_DENIS.latitude - 0.05 })).id;
      const conversationId = (
        await call(t, { method: 'POST', url: '/api/conversations', token: writer.token, payload: { userId: other.id } })
      ).json().conversation.id;
      await t.database.db.execute(
        sql`update users set terms_version = ${version}, terms_accepted_at = null where id = ${writer.id}`,
      );
      const writes = () => [
        call(t, {
          method: 'POST',
          url: '/api/posts',
          token: writer.token,
          payload: { category: 'happy', content: 'Bonjour', ...SAINT_DENIS, latitude: SAINT_DENIS.latitude - 0.06 },
        }),
        call(t, {
          method: 'POST',
          url: `/api/posts/${postId}/comments`,
          token: writer.token,
          payload: { content: 'Coucou' },
        }),
        call(t, {
          method: 'POST',
          url: `/api/conversations/${conversationId}/messages`,
          token: writer.token,
          payload: { content: 'Salut' },
        }),
      ];
      return { writer, writes };
    }

    it.each([
      ['never accepted', null],
      ['accepted an older version', '2020-01-01'],
    ])(
      'an account that %s cannot post, comment or message until it accepts, and still reads',
      async (_label, version) => {
        const { writer, writes } = await withoutCurrentTerms(version);
        const stored = () =>
          count(
            sql`select (select count(*) from publications where user_id = ${writer.id}) + (select count(*) from comments where user_id = ${writer.id}) + (select count(*) from messages where sender_id = ${writer.id}) as n`,
          );
        for (const res of await Promise.all(writes())) {
          expect(res.statusCode, res.body).toBe(403);
          expect(res.json().error).toEqual({ code: 'terms_not_accepted', message: TERMS_MESSAGE });
        }
        expect(await stored()).toBe(0);
        expect((await call(t, { method: 'GET', url: '/api/posts', token: writer.token })).statusCode).toBe(200);
        expect((await call(t, { method: 'GET', url: '/api/terms', token: writer.token })).json().mustAccept).toBe(true);

        const accepted = await call(t, {
          method: 'POST',
          url: '/api/terms/accept',
          token: writer.token,
          payload: { version: termsAt(new Date()).current.version },
        });
        expect(accepted.statusCode, accepted.body).toBe(200);
        for (const res of await Promise.all(writes())) expect(res.statusCode, res.body).toBe(201);
        expect(await stored()).toBe(3);
      },
    );
  });
});
