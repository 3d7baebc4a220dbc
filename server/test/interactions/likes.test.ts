import { describe, expect, it } from 'vitest';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { SAINT_DENIS, expire, member, publish, storedAndActualCount } from './fixtures.ts';

describe.each(engines)('likes on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const like = (token: string, postId: string) => call(t, { method: 'POST', url: `/api/posts/${postId}/like`, token });

  const counts = (postId: string) => storedAndActualCount(t, postId, 'likes');

  it('toggles my like on and off, and the post shows the count and whether I liked it', async () => {
    const author = await member(t);
    const fan = await member(t);
    const post = await publish(t, author.token);

    const on = await like(fan.token, post.id);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ liked: true, likesCount: 1 });
    const seenByFan = (await call(t, { method: 'GET', url: `/api/posts/${post.id}`, token: fan.token })).json().post;
    expect(seenByFan).toMatchObject({ likesCount: 1, isLikedByUser: true });
    const seenByAuthor = (await call(t, { method: 'GET', url: `/api/posts/${post.id}`, token: author.token })).json().post;
    expect(seenByAuthor).toMatchObject({ likesCount: 1, isLikedByUser: false });

    expect((await like(fan.token, post.id)).json()).toEqual({ liked: false, likesCount: 0 });
    expect((await call(t, { method: 'GET', url: `/api/posts/${post.id}`, token: fan.token })).json().post)
      .toMatchObject({ likesCount: 0, isLikedByUser: false });
  });

  it('requires a signed-in caller', async () => {
    const author = await member(t);
    const post = await publish(t, author.token);
    const res = await like('', post.id);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('User not authenticated');
    expect(await counts(post.id)).toEqual({ stored: 0, actual: 0 });
  });

  it('keeps the count equal to the rows under 50 concurrent toggles from various people', async () => {
    const author = await member(t);
    const post = await publish(t, author.token);
    const fans = await Promise.all(Array.from({ length: 30 }, () => member(t)));
    // 20 people toggle once, 10 toggle three times: 50 toggles, and an odd number each, so all 30 end liked.
    const requests = fans.flatMap((fan, i) => Array.from({ length: i < 20 ? 1 : 3 }, () => fan.token));
    expect(requests).toHaveLength(50);
    const results = await Promise.all(requests.map((token) => like(token, post.id)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(await counts(post.id)).toEqual({ stored: 30, actual: 30 });
    // Each answer is the count right after that toggle: the last one committed saw all 30.
    expect(Math.max(...results.map((r) => r.json().likesCount as number))).toBe(30);
  }, 60_000);

  it('keeps one person to at most one like under 50 concurrent toggles', async () => {
    const author = await member(t);
    const fan = await member(t);
    const post = await publish(t, author.token);
    const results = await Promise.all(Array.from({ length: 50 }, () => like(fan.token, post.id)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const liked = results.map((r) => r.json().liked as boolean);
    // Serialised toggles alternate: 25 on, 25 off, ending with no like.
    expect(liked.filter(Boolean)).toHaveLength(25);
    expect(await counts(post.id)).toEqual({ stored: 0, actual: 0 });
    expect(results.every((r) => [0, 1].includes(r.json().likesCount))).toBe(true);
  }, 60_000);

  it('refuses a like on an expired or missing post', async () => {
    const author = await member(t);
    const fan = await member(t);
    const post = await publish(t, author.token);
    await expire(t, post.id);
    const res = await like(fan.token, post.id);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual({ code: 'post_not_found', message: 'Publication introuvable' });
    expect(await counts(post.id)).toEqual({ stored: 0, actual: 0 });
    const missing = await like(fan.token, '00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Publication introuvable');
  });

  it('announces the new count to the maps showing the post, without saying who liked', async () => {
    const author = await member(t);
    const fan = await member(t);
    const post = await publish(t, author.token);
    const events: Array<{ type: string; data: unknown }> = [];
    const stop = t.app.ctx.bus.subscribe((e) => events.push(e));
    await like(fan.token, post.id);
    await like(fan.token, post.id);
    await expect.poll(() => events.filter((e) => e.type === 'post.liked').length).toBe(2);
    stop();
    const liked = events.filter((e) => e.type === 'post.liked');
    // `about` names the author, for the hub's block filter; it never leaves the server.
    expect(liked).toEqual([
      { type: 'post.liked', data: { postId: post.id, likesCount: 1 }, at: SAINT_DENIS, about: [author.id] },
      { type: 'post.liked', data: { postId: post.id, likesCount: 0 }, at: SAINT_DENIS, about: [author.id] },
    ]);
    expect(JSON.stringify(liked)).not.toContain(fan.id);
  });
});
