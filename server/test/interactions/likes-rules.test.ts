/**
 * Who may set or remove a like: a signed-in member, not suspended, on a live post of someone
 * neither of them blocked. A refusal changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { as, staff } from '../moderation/fixtures.ts';
import { SAINT_DENIS, expire, member, publish, storedAndActualCount, type Member } from './fixtures.ts';

const SUSPENDED =
  /^Votre compte est suspendu jusqu'au \d{1,2} \S+ \d{4} à \d{2}:\d{2}\. Vous ne pouvez ni publier, ni commenter, ni envoyer de message\.$/;
const METHODS = ['PUT', 'DELETE'] as const;

describe.each(engines)('likes rules on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const like = (method: 'PUT' | 'DELETE', token: string, postId: string) =>
    call(t, { method, url: `/api/posts/${postId}/like`, token });
  const counts = (postId: string) => storedAndActualCount(t, postId, 'likes');

  /** An author's post the fan already likes. */
  async function likedPost() {
    const author = await member(t);
    const fan = await member(t);
    const post = await publish(t, author.token);
    expect((await like('PUT', fan.token, post.id)).statusCode).toBe(200);
    return { author, fan, post };
  }

  /** Suspends the member for a week, as a moderator does after a report on their post. */
  async function suspend(who: Member) {
    const post = await publish(t, who.token, { latitude: SAINT_DENIS.latitude - 0.01 });
    const reported = await call(t, {
      method: 'POST',
      url: `/api/posts/${post.id}/report`,
      token: (await member(t)).token,
      payload: { reason: 'harassment' },
    });
    expect(reported.statusCode, reported.body).toBe(201);
    const decided = await as(t, await staff(t, 'moderator'), {
      method: 'POST',
      url: `/api/moderation/posts/${post.id}/decision`,
      payload: { action: 'suspend', reason: 'harassment', days: 7 },
    });
    expect(decided.statusCode, decided.body).toBe(200);
  }

  it.each(METHODS)('%s requires a signed-in caller', async (method) => {
    const { post } = await likedPost();
    const res = await like(method, '', post.id);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('User not authenticated');
    expect(await counts(post.id)).toEqual({ stored: 1, actual: 1 });
  });

  it.each(['the author blocked the fan', 'the fan blocked the author'])(
    'refuses both when %s, keeping the like as it was',
    async (direction) => {
      const { author, fan, post } = await likedPost();
      const [blocker, blocked] = direction.startsWith('the author') ? [author, fan] : [fan, author];
      expect(
        (await call(t, { method: 'PUT', url: `/api/blocks/${blocked.id}`, token: blocker.token })).statusCode,
      ).toBe(200);
      for (const method of METHODS) {
        const res = await like(method, fan.token, post.id);
        expect(res.statusCode, method).toBe(403);
        expect(res.json().error).toEqual({ code: 'user_blocked_you', message: MESSAGES.user_blocked_you });
      }
      expect(await counts(post.id)).toEqual({ stored: 1, actual: 1 });
    },
  );

  it('refuses both to a suspended member, keeping the like as it was', async () => {
    const { fan, post } = await likedPost();
    await suspend(fan);
    for (const method of METHODS) {
      const res = await like(method, fan.token, post.id);
      expect(res.statusCode, method).toBe(403);
      expect(res.json().error.code).toBe('account_suspended');
      expect(res.json().error.message).toMatch(SUSPENDED);
    }
    expect(await counts(post.id)).toEqual({ stored: 1, actual: 1 });
  });

  it.each(METHODS)('%s answers 404 for an expired or missing post', async (method) => {
    const { fan, post } = await likedPost();
    await expire(t, post.id);
    const expired = await like(method, fan.token, post.id);
    expect(expired.statusCode).toBe(404);
    expect(expired.json().error).toEqual({ code: 'post_not_found', message: 'Publication introuvable' });
    expect(await counts(post.id)).toEqual({ stored: 1, actual: 1 });
    const missing = await like(method, fan.token, '00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toEqual({ code: 'post_not_found', message: 'Publication introuvable' });
  });
});
