/**
 * Blocking: a blocked person cannot message the blocker or comment on their posts;
 * each stops seeing the other's posts and comments on the map (viewport, changes, cards) and
 * over the WebSocket; other viewers keep the shared cached answer. Unblocking restores it all.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteListeningApp } from '../helpers/suite-app.ts';
import { barrier, connectSocket, type TestSocket } from '../helpers/ws.ts';
import { member, publish, SAINT_DENIS, type Member } from '../interactions/fixtures.ts';

const VIEW = { west: 55.4, south: -20.9, east: 55.5, north: -20.8 };
type Frame = { type: string; data?: unknown };

describe.each(engines)('blocking on %s', (engine) => {
  const t = suiteListeningApp(engine);

  const block = (who: Member, other: Member, method: 'PUT' | 'DELETE' = 'PUT') =>
    call(t, { method, url: `/api/blocks/${other.id}`, token: who.token });
  const viewport = (token?: string) =>
    call(t, {
      method: 'GET',
      url: `/api/posts/viewport?${new URLSearchParams(Object.entries({ ...VIEW, zoom: 13 }).map(([k, v]): [string, string] => [k, String(v)]))}`,
      token,
    });
  const ids = (res: { json(): { points: Array<{ id: string }> } }) => res.json().points.map((p) => p.id);

  async function tab(token: string): Promise<TestSocket> {
    const socket = await connectSocket(t.base);
    await socket.next((f) => f.type === 'ready');
    socket.send({ type: 'auth', token });
    await socket.next((f) => f.type === 'ready' && f.userId !== null);
    socket.send({ type: 'view', ...VIEW });
    socket.send({ type: 'ping' });
    await socket.next((f) => f.type === 'pong');
    return socket;
  }
  it('refuses messages and comments between two people when one blocked the other, with a French error', async () => {
    const blocker = await member(t);
    const blocked = await member(t);
    const post = await publish(t, blocker.token);
    const conversation = (
      await call(t, {
        method: 'POST',
        url: '/api/conversations',
        token: blocked.token,
        payload: { userId: blocker.id },
      })
    ).json().conversation;
    expect((await block(blocker, blocked)).json()).toEqual({ userId: blocked.id, blocked: true });
    for (const [who, res] of [
      [
        'blocked → blocker message',
        await call(t, {
          method: 'POST',
          url: `/api/conversations/${conversation.id}/messages`,
          token: blocked.token,
          payload: { content: 'Salut' },
        }),
      ],
      [
        'blocker → blocked message',
        await call(t, {
          method: 'POST',
          url: `/api/conversations/${conversation.id}/messages`,
          token: blocker.token,
          payload: { content: 'Salut' },
        }),
      ],
      [
        'blocked comments',
        await call(t, {
          method: 'POST',
          url: `/api/posts/${post.id}/comments`,
          token: blocked.token,
          payload: { content: 'Coucou' },
        }),
      ],
    ] as const) {
      expect(res.statusCode, who).toBe(403);
      expect(res.json().error).toEqual({
        code: 'user_blocked_you',
        message: 'Vous ne pouvez pas interagir avec cette personne',
      });
    }
    // The list, then unblocking restores messaging.
    const list = (await call(t, { method: 'GET', url: '/api/blocks', token: blocker.token })).json().blocked;
    expect(list.map((b: { id: string }) => b.id)).toEqual([blocked.id]);
    expect((await block(blocker, blocked, 'DELETE')).json()).toEqual({ userId: blocked.id, blocked: false });
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/conversations/${conversation.id}/messages`,
          token: blocked.token,
          payload: { content: 'Salut' },
        })
      ).statusCode,
    ).toBe(201);
    expect((await call(t, { method: 'GET', url: '/api/blocks', token: blocker.token })).json().blocked).toEqual([]);
    expect((await block(blocker, blocker)).json().error.message).toBe('Vous ne pouvez pas vous bloquer vous-même');
    // The same id in capitals is the same person.
    const self = await call(t, { method: 'PUT', url: `/api/blocks/${blocker.id.toUpperCase()}`, token: blocker.token });
    expect([self.statusCode, self.json().error?.code]).toEqual([400, 'block_self']);
    expect((await call(t, { method: 'GET', url: '/api/blocks', token: blocker.token })).json().blocked).toEqual([]);
    expect((await call(t, { method: 'PUT', url: `/api/blocks/${blocked.id}` })).statusCode).toBe(401);
  });

  it("removes each one's posts and comments from the other's map, keeps everyone else's shared answer", async () => {
    const blocker = await member(t);
    const blocked = await member(t);
    const bystander = await member(t);
    const theirs = await publish(t, blocked.token, { latitude: SAINT_DENIS.latitude + 0.001 });
    const mine = await publish(t, blocker.token);
    const commented = await publish(t, bystander.token, { latitude: SAINT_DENIS.latitude + 0.002 });
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${commented.id}/comments`,
          token: blocked.token,
          payload: { content: 'Je passe' },
        })
      ).statusCode,
    ).toBe(201);
    await block(blocker, blocked);

    expect(ids(await viewport(blocker.token))).not.toContain(theirs.id);
    expect(ids(await viewport(blocked.token))).not.toContain(mine.id);
    const shared = await viewport(bystander.token);
    expect(ids(shared)).toEqual(expect.arrayContaining([theirs.id, mine.id]));
    expect(shared.headers.etag).toBeTruthy();
    expect(ids(await viewport())).toEqual(expect.arrayContaining([theirs.id, mine.id]));
    expect((await call(t, { method: 'GET', url: `/api/posts/${theirs.id}`, token: blocker.token })).statusCode).toBe(
      404,
    );
    expect(
      (await call(t, { method: 'GET', url: `/api/posts/cards?ids=${theirs.id},${mine.id}`, token: blocker.token }))
        .json()
        .posts.map((p: { id: string }) => p.id),
    ).toEqual([mine.id]);
    const comments = (token?: string) =>
      call(t, { method: 'GET', url: `/api/posts/${commented.id}/comments`, token }).then(
        (r) => r.json().comments.length,
      );
    expect(await comments(blocker.token)).toBe(0);
    expect(await comments(bystander.token)).toBe(1);

    // Zoomed out, the posts are counted in clusters: the blocked person's post leaves the
    // blocker's counts (and the blocker's the blocked one's), not anyone else's.
    const island = async (token?: string) => {
      const res = await call(t, {
        method: 'GET',
        url: '/api/posts/viewport?west=54&south=-22&east=57&north=-20&zoom=6',
        token,
      });
      const body = res.json() as {
        points: unknown[];
        clusters: Array<{ count: number; moods: Record<string, number> }>;
      };
      expect(body.clusters.length).toBeGreaterThan(0);
      return body.points.length + body.clusters.reduce((n, c) => n + c.count, 0);
    };
    const everyone = await island(bystander.token);
    expect(await island()).toBe(everyone);
    expect(await island(blocker.token)).toBe(everyone - 1);
    expect(await island(blocked.token)).toBe(everyone - 1);

    const search = (token: string) =>
      call(t, { method: 'GET', url: '/api/search?q=Bonjour', token }).then((r) =>
        r.json().results.map((p: { id: string }) => p.id),
      );
    expect(await search(blocker.token)).not.toContain(theirs.id);
    expect(await search(bystander.token)).toContain(theirs.id);

    await block(blocker, blocked, 'DELETE');
    expect(ids(await viewport(blocker.token))).toContain(theirs.id);
  });

  it('sends no realtime event about a blocked person, in either direction', async () => {
    const blocker = await member(t);
    const blocked = await member(t);
    const bystander = await member(t);
    await block(blocker, blocked);
    const blockerTab = await tab(blocker.token);
    const blockedTab = await tab(blocked.token);
    const bystanderTab = await tab(bystander.token);
    const theirs = await publish(t, blocked.token);
    const mine = await publish(t, blocker.token, { latitude: SAINT_DENIS.latitude + 0.003 });
    const created = (id: string) => (f: Frame) =>
      f.type === 'post.created' && (f.data as { post: { id: string } }).post.id === id;
    await bystanderTab.next(created(theirs.id));
    await bystanderTab.next(created(mine.id));
    await blockerTab.next(created(mine.id));
    await blockedTab.next(created(theirs.id));
    // A comment by the blocked person on a third post: no event to the blocker.
    const third = await publish(t, bystander.token, { latitude: SAINT_DENIS.latitude + 0.004 });
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${third.id}/comments`,
          token: blocked.token,
          payload: { content: 'Vu' },
        })
      ).statusCode,
    ).toBe(201);
    await bystanderTab.next((f) => f.type === 'post.commented');
    // A like on the blocked person's post: the count is news about them, not for the blocker.
    expect(
      (await call(t, { method: 'POST', url: `/api/posts/${theirs.id}/like`, token: bystander.token })).statusCode,
    ).toBe(200);
    const likedTheirs = (f: Frame) => f.type === 'post.liked' && (f.data as { postId: string }).postId === theirs.id;
    await bystanderTab.next(likedTheirs);
    await barrier(t.app, [blockerTab, blockedTab, bystanderTab]);
    expect(blockerTab.frames.some(created(theirs.id))).toBe(false);
    expect(blockerTab.frames.some((f) => f.type === 'post.commented')).toBe(false);
    expect(blockerTab.frames.some(likedTheirs)).toBe(false);
    expect(blockedTab.frames.some(created(mine.id))).toBe(false);
    expect(
      [...blockerTab.raw, ...bystanderTab.raw].some((r) => r.includes('blocks.changed') || r.includes('"about"')),
    ).toBe(false);

    // Unblocked while connected: events flow again without reconnecting (once the hub has
    // re-read the relation, so the comment is sent again until one arrives).
    await block(blocker, blocked, 'DELETE');
    let heard = false;
    for (let i = 0; i < 20 && !heard; i++) {
      expect(
        (
          await call(t, {
            method: 'POST',
            url: `/api/posts/${third.id}/comments`,
            token: blocked.token,
            payload: { content: `Re ${i}` },
          })
        ).statusCode,
      ).toBe(201);
      heard = await blockerTab
        .next((f) => f.type === 'post.commented', 500)
        .then(
          () => true,
          () => false,
        );
    }
    expect(heard).toBe(true);
    for (const s of [blockerTab, blockedTab, bystanderTab]) s.close();
  });
});
