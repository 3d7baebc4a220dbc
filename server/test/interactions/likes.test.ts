/**
 * Likes: PUT sets and DELETE removes the caller's like, so a repeat (double tap, replay, two tabs)
 * answers the same and announces nothing; the deprecated POST still toggles.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { SAINT_DENIS, member, publish, storedAndActualCount } from './fixtures.ts';

describe.each(engines)('likes on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const put = (token: string, postId: string) => call(t, { method: 'PUT', url: `/api/posts/${postId}/like`, token });
  const remove = (token: string, postId: string) =>
    call(t, { method: 'DELETE', url: `/api/posts/${postId}/like`, token });
  const toggle = (token: string, postId: string) =>
    call(t, { method: 'POST', url: `/api/posts/${postId}/like`, token });
  const counts = (postId: string) => storedAndActualCount(t, postId, 'likes');
  const seenBy = async (token: string, postId: string) =>
    (await call(t, { method: 'GET', url: `/api/posts/${postId}`, token })).json().post;

  /** The `post.liked` events published from now on. */
  function likedEvents() {
    const events: Array<{ type: string; data: unknown }> = [];
    const stop = t.app.ctx.bus.subscribe((e) => events.push(e));
    return { liked: () => events.filter((e) => e.type === 'post.liked'), stop };
  }

  it('likes once however often PUT is repeated, unlikes once however often DELETE is, and announces each change once', async () => {
    const author = await member(t);
    const fan = await member(t);
    const post = await publish(t, author.token);
    const bus = likedEvents();

    for (const res of [await put(fan.token, post.id), await put(fan.token, post.id)]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ likesCount: 1, isLikedByUser: true });
    }
    expect(await seenBy(fan.token, post.id)).toMatchObject({ likesCount: 1, isLikedByUser: true });
    expect(await seenBy(author.token, post.id)).toMatchObject({ likesCount: 1, isLikedByUser: false });

    for (const res of [await remove(fan.token, post.id), await remove(fan.token, post.id)]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ likesCount: 0, isLikedByUser: false });
    }
    expect(await seenBy(fan.token, post.id)).toMatchObject({ likesCount: 0, isLikedByUser: false });
    expect(await counts(post.id)).toEqual({ stored: 0, actual: 0 });

    // Events arrive in order: a repeat's would come before the unlike's, and fail the list below.
    await expect.poll(() => bus.liked().length).toBeGreaterThanOrEqual(2);
    bus.stop();
    // `about` names the author, for the hub's block filter; who liked is never said.
    expect(bus.liked()).toEqual([
      { type: 'post.liked', data: { postId: post.id, likesCount: 1 }, at: SAINT_DENIS, about: [author.id] },
      { type: 'post.liked', data: { postId: post.id, likesCount: 0 }, at: SAINT_DENIS, about: [author.id] },
    ]);
    expect(JSON.stringify(bus.liked())).not.toContain(fan.id);
  });

  it('makes one like of 20 simultaneous PUTs by one person, and announces it once', async () => {
    const author = await member(t);
    const fan = await member(t);
    const post = await publish(t, author.token);
    const bus = likedEvents();
    const results = await Promise.all(Array.from({ length: 20 }, () => put(fan.token, post.id)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(results.map((r) => r.json())).toEqual(Array(20).fill({ likesCount: 1, isLikedByUser: true }));
    expect(await counts(post.id)).toEqual({ stored: 1, actual: 1 });
    await remove(fan.token, post.id);
    // Events arrive in order: a repeated like's would come before the unlike's.
    await expect.poll(() => bus.liked().length).toBeGreaterThanOrEqual(2);
    bus.stop();
    expect(bus.liked().map((e) => e.data)).toEqual([
      { postId: post.id, likesCount: 1 },
      { postId: post.id, likesCount: 0 },
    ]);
  }, 60_000);

  it('counts each person once when many like at the same time, some of them twice', async () => {
    const author = await member(t);
    const post = await publish(t, author.token);
    const fans = await Promise.all(Array.from({ length: 15 }, () => member(t)));
    const results = await Promise.all(
      fans.flatMap((fan, i) => Array.from({ length: i < 10 ? 1 : 2 }, () => put(fan.token, post.id))),
    );
    expect(results.every((r) => r.statusCode === 200 && r.json().isLikedByUser === true)).toBe(true);
    expect(await counts(post.id)).toEqual({ stored: 15, actual: 15 });
    // Each answer is the count right after that write: the last one committed saw all 15.
    expect(Math.max(...results.map((r) => r.json().likesCount as number))).toBe(15);
  }, 60_000);

  it('still toggles through the deprecated POST, in step with PUT and DELETE', async () => {
    const author = await member(t);
    const fan = await member(t);
    const post = await publish(t, author.token);
    const bus = likedEvents();
    expect((await toggle(fan.token, post.id)).json()).toEqual({ liked: true, likesCount: 1 });
    expect((await toggle(fan.token, post.id)).json()).toEqual({ liked: false, likesCount: 0 });
    expect((await put(fan.token, post.id)).json()).toEqual({ likesCount: 1, isLikedByUser: true });
    expect((await toggle(fan.token, post.id)).json()).toEqual({ liked: false, likesCount: 0 });
    expect(await counts(post.id)).toEqual({ stored: 0, actual: 0 });
    await expect
      .poll(() => bus.liked().map((e) => e.data))
      .toEqual([1, 0, 1, 0].map((likesCount) => ({ postId: post.id, likesCount })));
    bus.stop();
  });
});
