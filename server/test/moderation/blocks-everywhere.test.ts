/**
 * The blocking rule on every route and every realtime event: once one of two people blocked the
 * other (either direction), the viewer reads nothing of the other (posts, comments, profile, in
 * any list), may not like, comment, edit a comment, open a conversation or message them (403),
 * and hears none of their events; a third person still sees it all. Every route of the app is
 * listed here, checked or said to concern no other member, so a new route cannot escape.
 */
import { MESSAGES, REALTIME_EVENT_TYPES, type RealtimeEventType } from '@moodmap/core';
import type { LightMyRequestResponse } from 'fastify';
import type { RealtimeEvent } from '../../src/adapters/bus/types.ts';
import { describe, expect, it } from 'vitest';
import { call, type AuthTestApp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteListeningApp } from '../helpers/suite-app.ts';
import { barrier, connectSocket, type TestSocket } from '../helpers/ws.ts';
import { listRoutes } from '../fuzz/route-list.ts';
import { member, publish, SAINT_DENIS, type Member } from '../interactions/fixtures.ts';

const VIEW = { west: 55.4, south: -20.9, east: 55.5, north: -20.8 };
const DIRECTIONS = ['the viewer blocked the other', 'the other blocked the viewer'] as const;
type Direction = (typeof DIRECTIONS)[number];

interface World {
  viewer: Member;
  other: Member;
  third: Member;
  otherPost: string;
  thirdPost: string;
  /** The viewer's comment on the other's post, and the third's; the other's on the third's post. */
  viewerComment: string;
  thirdComment: string;
  otherComment: string;
  conversation: string;
  cursor: string;
}

const query = (values: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(values).map(([k, v]): [string, string] => [k, String(v)]));
const ids = (list: Array<{ id: string }>) => list.map((p) => p.id);

function refused(res: LightMyRequestResponse, what: string) {
  expect(res.statusCode, what).toBe(403);
  expect(res.json().error, what).toEqual({ code: 'user_blocked_you', message: MESSAGES.user_blocked_you });
}

type Check = (t: AuthTestApp, w: World) => Promise<void>;
const get = (t: AuthTestApp, url: string, who: Member) => call(t, { method: 'GET', url, token: who.token });

/** Routes that name or list another member's things, and what the viewer and the third get. */
const CHECKED: Record<string, Check> = {
  'GET /api/posts': async (t, w) => {
    expect(ids((await get(t, '/api/posts', w.viewer)).json().posts)).not.toContain(w.otherPost);
    expect(ids((await get(t, '/api/posts', w.third)).json().posts)).toContain(w.otherPost);
  },
  'GET /api/posts/viewport': async (t, w) => {
    const url = `/api/posts/viewport?${query({ ...VIEW, zoom: 13 })}`;
    expect(ids((await get(t, url, w.viewer)).json().points)).not.toContain(w.otherPost);
    expect(ids((await get(t, url, w.third)).json().points)).toContain(w.otherPost);
  },
  'GET /api/posts/changes': async (t, w) => {
    const url = `/api/posts/changes?${query({ since: w.cursor })}`;
    expect(ids((await get(t, url, w.viewer)).json().created)).not.toContain(w.otherPost);
    expect(ids((await get(t, url, w.third)).json().created)).toContain(w.otherPost);
  },
  'GET /api/posts/cards': async (t, w) => {
    const url = `/api/posts/cards?ids=${w.otherPost},${w.thirdPost}`;
    expect(ids((await get(t, url, w.viewer)).json().posts)).toEqual([w.thirdPost]);
    expect(ids((await get(t, url, w.third)).json().posts).sort()).toEqual([w.otherPost, w.thirdPost].sort());
  },
  'GET /api/search': async (t, w) => {
    expect(ids((await get(t, '/api/search?q=Bonjour', w.viewer)).json().results)).not.toContain(w.otherPost);
    expect(ids((await get(t, '/api/search?q=Bonjour', w.third)).json().results)).toContain(w.otherPost);
  },
  'GET /api/posts/:id': async (t, w) => {
    expect((await get(t, `/api/posts/${w.otherPost}`, w.viewer)).json().error.code).toBe('post_not_found');
    expect((await get(t, `/api/posts/${w.otherPost}`, w.third)).statusCode).toBe(200);
  },
  'GET /api/posts/:id/comments': async (t, w) => {
    expect((await get(t, `/api/posts/${w.otherPost}/comments`, w.viewer)).json().error.code).toBe('post_not_found');
    expect(ids((await get(t, `/api/posts/${w.thirdPost}/comments`, w.viewer)).json().comments)).not.toContain(
      w.otherComment,
    );
    expect(ids((await get(t, `/api/posts/${w.thirdPost}/comments`, w.third)).json().comments)).toContain(
      w.otherComment,
    );
    expect(ids((await get(t, `/api/posts/${w.otherPost}/comments`, w.third)).json().comments)).toContain(
      w.viewerComment,
    );
  },
  'GET /api/profiles/:id': async (t, w) => {
    const res = await get(t, `/api/profiles/${w.other.id}`, w.viewer);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual({ code: 'profile_not_found', message: MESSAGES.profile_not_found });
    expect((await get(t, `/api/profiles/${w.other.id.toUpperCase()}`, w.viewer)).statusCode).toBe(404);
    expect(
      (await get(t, `/api/profiles/${w.other.id}`, w.third)).json().posts.map((p: { id: string }) => p.id),
    ).toEqual([w.otherPost]);
  },
  'PUT /api/posts/:id/like': async (t, w) => {
    refused(await call(t, { method: 'PUT', url: `/api/posts/${w.otherPost}/like`, token: w.viewer.token }), 'like');
    expect(
      (await call(t, { method: 'PUT', url: `/api/posts/${w.otherPost}/like`, token: w.third.token })).statusCode,
    ).toBe(200);
  },
  'DELETE /api/posts/:id/like': async (t, w) => {
    refused(
      await call(t, { method: 'DELETE', url: `/api/posts/${w.otherPost}/like`, token: w.viewer.token }),
      'unlike',
    );
    expect(
      (await call(t, { method: 'DELETE', url: `/api/posts/${w.otherPost}/like`, token: w.third.token })).statusCode,
    ).toBe(200);
  },
  'POST /api/posts/:id/like': async (t, w) => {
    refused(await call(t, { method: 'POST', url: `/api/posts/${w.otherPost}/like`, token: w.viewer.token }), 'like');
    expect(
      (await call(t, { method: 'POST', url: `/api/posts/${w.otherPost}/like`, token: w.third.token })).statusCode,
    ).toBe(200);
  },
  'POST /api/posts/:id/comments': async (t, w) => {
    refused(
      await call(t, {
        method: 'POST',
        url: `/api/posts/${w.otherPost}/comments`,
        token: w.viewer.token,
        payload: { content: 'Coucou' },
      }),
      'comment',
    );
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${w.otherPost}/comments`,
          token: w.third.token,
          payload: { content: 'Coucou' },
        })
      ).statusCode,
    ).toBe(201);
  },
  'PATCH /api/comments/:id': async (t, w) => {
    refused(
      await call(t, {
        method: 'PATCH',
        url: `/api/comments/${w.viewerComment}`,
        token: w.viewer.token,
        payload: { content: 'Modifié' },
      }),
      'edit',
    );
    expect(
      (
        await call(t, {
          method: 'PATCH',
          url: `/api/comments/${w.thirdComment}`,
          token: w.third.token,
          payload: { content: 'Modifié' },
        })
      ).statusCode,
    ).toBe(200);
  },
  // Taking back what one wrote stays possible.
  'DELETE /api/comments/:id': async (t, w) => {
    expect(
      (await call(t, { method: 'DELETE', url: `/api/comments/${w.viewerComment}`, token: w.viewer.token })).statusCode,
    ).toBe(200);
  },
  // Reporting is a safety tool: open whatever the blocks.
  'POST /api/posts/:id/report': async (t, w) => {
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${w.otherPost}/report`,
          token: w.viewer.token,
          payload: { reason: 'harassment' },
        })
      ).statusCode,
    ).toBe(201);
  },
  // Only its author deletes a post, as for anyone.
  'DELETE /api/posts/:id': async (t, w) => {
    expect(
      (await call(t, { method: 'DELETE', url: `/api/posts/${w.otherPost}`, token: w.viewer.token })).statusCode,
    ).toBe(403);
    expect((await get(t, `/api/posts/${w.otherPost}`, w.third)).statusCode).toBe(200);
  },
  'POST /api/conversations': async (t, w) => {
    refused(
      await call(t, {
        method: 'POST',
        url: '/api/conversations',
        token: w.viewer.token,
        payload: { userId: w.other.id },
      }),
      'open',
    );
    expect(
      (
        await call(t, {
          method: 'POST',
          url: '/api/conversations',
          token: w.third.token,
          payload: { userId: w.other.id },
        })
      ).statusCode,
    ).toBe(201);
  },
  'POST /api/conversations/:id/messages': async (t, w) => {
    refused(
      await call(t, {
        method: 'POST',
        url: `/api/conversations/${w.conversation}/messages`,
        token: w.viewer.token,
        payload: { content: 'Salut' },
      }),
      'message',
    );
  },
  // Their earlier conversation stays readable to both, as history, but takes no new message.
  'GET /api/conversations': async (t, w) => {
    expect(ids((await get(t, '/api/conversations', w.viewer)).json().conversations)).toContain(w.conversation);
  },
  'GET /api/conversations/:id': async (t, w) => {
    expect((await get(t, `/api/conversations/${w.conversation}`, w.viewer)).statusCode).toBe(200);
  },
  'GET /api/conversations/:id/messages': async (t, w) => {
    expect((await get(t, `/api/conversations/${w.conversation}/messages`, w.viewer)).json().messages).toHaveLength(2);
  },
  'POST /api/conversations/:id/read': async (t, w) => {
    expect(
      (await call(t, { method: 'POST', url: `/api/conversations/${w.conversation}/read`, token: w.viewer.token }))
        .statusCode,
    ).toBe(200);
  },
  // The blocked one's request leaves the box (requests.test.ts); an accepted conversation is no request.
  'GET /api/conversations/requests': async (t, w) => {
    expect(ids((await get(t, '/api/conversations/requests', w.viewer)).json().conversations)).not.toContain(
      w.conversation,
    );
  },
  'POST /api/conversations/:id/accept': async (t, w) => {
    expect(
      (await call(t, { method: 'POST', url: `/api/conversations/${w.conversation}/accept`, token: w.viewer.token }))
        .statusCode,
    ).toBe(200);
  },
  'DELETE /api/conversations/:id/request': async (t, w) => {
    expect(
      (await call(t, { method: 'DELETE', url: `/api/conversations/${w.conversation}/request`, token: w.viewer.token }))
        .statusCode,
    ).toBe(404);
  },
  'GET /api/conversations/unread': async (t, w) => {
    expect((await get(t, '/api/conversations/unread', w.viewer)).statusCode).toBe(200);
  },
};

/** Routes about no other member's things, each with the reason. */
const SELF_OR_STAFF = "the caller's own account, or a staff tool acting on anyone";
const UNRELATED: Record<string, string> = {
  'GET /api/blocks': 'the blocking itself (blocks.test.ts)',
  'PUT /api/blocks/:id': 'the blocking itself (blocks.test.ts)',
  'DELETE /api/blocks/:id': 'the blocking itself (blocks.test.ts)',
  'GET /api/posts/mine/active': SELF_OR_STAFF,
  'POST /api/posts': 'publishing (its event is checked below)',
  'POST /api/uploads/post-image': SELF_OR_STAFF,
  'POST /api/uploads/voice': SELF_OR_STAFF,
  'PATCH /api/profiles/me': 'own profile (its event is checked below)',
  'POST /api/profiles/me/photo': 'own profile (its event is checked below)',
  'DELETE /api/profiles/me/photo': 'own profile (its event is checked below)',
  'GET /api/admin/security-logs': SELF_OR_STAFF,
  'GET /api/admin/users': SELF_OR_STAFF,
  'PUT /api/admin/users/:id/role': SELF_OR_STAFF,
  'POST /api/admin/visit': SELF_OR_STAFF,
  'PUT /api/staff/users/:id/tier': SELF_OR_STAFF,
  'GET /api/moderation/appeal-link': SELF_OR_STAFF,
  'POST /api/moderation/appeal-link': SELF_OR_STAFF,
  'POST /api/dsa-notices': 'a notice of illegal content, which anyone may send about any post',
  'POST /api/dsa-notices/confirm': SELF_OR_STAFF,
  'POST /api/moderation/appeals/:id/decision': SELF_OR_STAFF,
  'POST /api/moderation/decisions/:id/appeal': SELF_OR_STAFF,
  'GET /api/moderation/notices': SELF_OR_STAFF,
  'POST /api/moderation/notices/read': SELF_OR_STAFF,
  'POST /api/moderation/posts/:postId/decision': SELF_OR_STAFF,
  'GET /api/moderation/queue': SELF_OR_STAFF,
  'GET /api/costs': SELF_OR_STAFF,
  'PUT /api/costs/emergency': SELF_OR_STAFF,
  'GET /api/stats': SELF_OR_STAFF,
  'POST /api/analytics/events': SELF_OR_STAFF,
  'GET /api/auth/challenge': SELF_OR_STAFF,
  'POST /api/auth/login': SELF_OR_STAFF,
  'POST /api/auth/logout': SELF_OR_STAFF,
  'POST /api/auth/password': SELF_OR_STAFF,
  'POST /api/auth/recover': SELF_OR_STAFF,
  'POST /api/auth/refresh': SELF_OR_STAFF,
  'POST /api/auth/reset-password': SELF_OR_STAFF,
  'GET /api/auth/role': SELF_OR_STAFF,
  'GET /api/auth/session': SELF_OR_STAFF,
  'POST /api/auth/signup': SELF_OR_STAFF,
  'GET /api/auth/verify': SELF_OR_STAFF,
  'POST /api/pulse/checkout': SELF_OR_STAFF,
  'GET /api/pulse/purchases': SELF_OR_STAFF,
  'GET /dev/checkout/:id': SELF_OR_STAFF,
  'POST /dev/checkout/:id': SELF_OR_STAFF,
  'POST /dev/checkout/:id/confirm': SELF_OR_STAFF,
  'POST /dev/role': SELF_OR_STAFF,
  'GET /api/push/key': SELF_OR_STAFF,
  'GET /api/push/subscriptions': SELF_OR_STAFF,
  'POST /api/push/subscriptions': SELF_OR_STAFF,
  'PATCH /api/push/subscriptions/:id': SELF_OR_STAFF,
  'DELETE /api/push/subscriptions/:id': SELF_OR_STAFF,
  // The caller's own archive: their conversations keep both sides, whatever the blocks since.
  'POST /api/account/export': SELF_OR_STAFF,
  'GET /api/account/export': SELF_OR_STAFF,
  'GET /api/account/export/download': SELF_OR_STAFF,
  'POST /api/account/delete': SELF_OR_STAFF,
  'GET /api/terms': 'public texts and figures',
  'POST /api/terms/accept': SELF_OR_STAFF,
  'GET /api/config': 'public texts and figures',
  'GET /api/emergency': 'public texts and figures',
  'GET /api/health': 'public texts and figures',
  'GET /api/geo/land': 'public texts and figures',
  'GET /api/geo/places': 'public texts and figures',
  'GET /api/geo/tiles/:z/:x/:y.pbf': 'public texts and figures',
  'GET /api/map/borders.geojson': 'public texts and figures',
  'GET /api/map/land.geojson': 'public texts and figures',
  'GET /api/geo/basemap.pmtiles': 'public texts and figures',
  'GET /media/*': 'stored files, by unguessable name',
  'POST /api/payments/webhook': "the payment provider's calls",
  'GET /dev/mail': 'development mailbox',
  'GET /dev/mail.json': 'development mailbox',
  'GET /api/realtime': 'the socket: every event type is checked below',
};

describe.each(engines)('the blocking rule, everywhere, on %s', (engine) => {
  const t = suiteListeningApp(engine);

  const block = async (direction: Direction, viewer: Member, other: Member) => {
    const [blocker, blocked] = direction === DIRECTIONS[0] ? [viewer, other] : [other, viewer];
    expect((await call(t, { method: 'PUT', url: `/api/blocks/${blocked.id}`, token: blocker.token })).statusCode).toBe(
      200,
    );
  };

  async function world(direction: Direction): Promise<World> {
    const [viewer, other, third] = [await member(t), await member(t), await member(t)];
    const cursor = (await get(t, `/api/posts/viewport?${query({ ...VIEW, zoom: 13 })}`, third)).json().cursor;
    const otherPost = (await publish(t, other.token, { latitude: SAINT_DENIS.latitude + 0.001 })).id;
    const thirdPost = (await publish(t, third.token, { latitude: SAINT_DENIS.latitude + 0.002 })).id;
    const comment = async (who: Member, postId: string) =>
      (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${postId}/comments`,
          token: who.token,
          payload: { content: 'Je passe' },
        })
      ).json().comment.id as string;
    const conversation = (
      await call(t, { method: 'POST', url: '/api/conversations', token: viewer.token, payload: { userId: other.id } })
    ).json().conversation.id;
    for (const who of [viewer, other]) {
      expect(
        (
          await call(t, {
            method: 'POST',
            url: `/api/conversations/${conversation}/messages`,
            token: who.token,
            payload: { content: 'Salut' },
          })
        ).statusCode,
      ).toBe(201);
    }
    const w = {
      viewer,
      other,
      third,
      otherPost,
      thirdPost,
      cursor,
      conversation,
      viewerComment: await comment(viewer, otherPost),
      thirdComment: await comment(third, otherPost),
      otherComment: await comment(other, thirdPost),
    };
    await block(direction, viewer, other);
    return w;
  }

  it('lists every route as checked or as concerning no other member', () => {
    const routes = listRoutes(t.app)
      .filter((r) => r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    const listed = [...Object.keys(CHECKED), ...Object.keys(UNRELATED)];
    expect(
      routes.filter((r) => !listed.includes(r)),
      'routes this suite does not know: check them or say why not',
    ).toEqual([]);
    expect(
      listed.filter((r) => !routes.includes(r)),
      'routes gone',
    ).toEqual([]);
  });

  it.each(DIRECTIONS)('hides the other and refuses contact on every route when %s', async (direction) => {
    const w = await world(direction);
    for (const [route, check] of Object.entries(CHECKED)) {
      await check(t, w).catch((error: unknown) => {
        throw new Error(`${route}: ${String(error)}`);
      });
    }
  });

  async function tab(who: Member): Promise<TestSocket> {
    const socket = await connectSocket(t.base);
    await socket.next((f) => f.type === 'ready');
    socket.send({ type: 'auth', token: who.token });
    await socket.next((f) => f.type === 'ready' && f.userId === who.id);
    socket.send({ type: 'view', ...VIEW });
    socket.send({ type: 'ping' });
    await socket.next((f) => f.type === 'pong');
    return socket;
  }

  it.each(DIRECTIONS)("sends the viewer none of the other's events, of any type, when %s", async (direction) => {
    const [viewer, other, third] = [await member(t), await member(t), await member(t)];
    const viewerPost = (await publish(t, viewer.token, { latitude: SAINT_DENIS.latitude + 0.003 })).id;
    const thirdPost = (await publish(t, third.token, { latitude: SAINT_DENIS.latitude + 0.004 })).id;
    const conversation = (
      await call(t, { method: 'POST', url: '/api/conversations', token: viewer.token, payload: { userId: other.id } })
    ).json().conversation.id;
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/conversations/${conversation}/messages`,
          token: viewer.token,
          payload: { content: 'Salut' },
        })
      ).statusCode,
    ).toBe(201);
    // The other knows the viewer (no request): the read receipt below is a real one.
    expect(
      (await call(t, { method: 'POST', url: '/api/conversations', token: other.token, payload: { userId: viewer.id } }))
        .statusCode,
    ).toBe(200);
    await block(direction, viewer, other);
    const [viewerTab, otherTab, thirdTab] = [await tab(viewer), await tab(other), await tab(third)];
    const as = (who: Member, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      call(t, { method, url, token: who.token, payload });
    const heard = (socket: TestSocket, type: string, text: string) =>
      socket.next((f) => f.type === type && JSON.stringify(f.data).includes(text));
    let otherPost = '';
    const nickname = `Renommé${Math.floor(Math.random() * 1e6)}`;

    // Each type: the other (or a third person, about the other) makes one happen; someone else hears it.
    const triggers: Record<RealtimeEventType, (() => Promise<void>) | string> = {
      'post.created': async () => {
        otherPost = (await publish(t, other.token, { latitude: SAINT_DENIS.latitude + 0.001 })).id;
        await heard(thirdTab, 'post.created', otherPost);
      },
      'post.liked': async () => {
        expect((await as(third, 'POST', `/api/posts/${otherPost}/like`)).statusCode).toBe(200);
        await heard(thirdTab, 'post.liked', otherPost);
      },
      'post.commented': async () => {
        expect((await as(third, 'POST', `/api/posts/${otherPost}/comments`, { content: 'Vu' })).statusCode).toBe(201);
        await heard(thirdTab, 'post.commented', otherPost);
        expect((await as(other, 'POST', `/api/posts/${thirdPost}/comments`, { content: 'Vu' })).statusCode).toBe(201);
        await heard(thirdTab, 'post.commented', other.id);
      },
      'profile.updated': async () => {
        expect((await as(other, 'PATCH', '/api/profiles/me', { nickname })).statusCode).toBe(200);
        await heard(thirdTab, 'profile.updated', other.id);
      },
      'message.read': async () => {
        expect((await as(other, 'POST', `/api/conversations/${conversation}/read`)).json().updated).toBe(1);
        await heard(otherTab, 'message.read', conversation);
      },
      'conversation.updated': async () => {
        refused(await as(other, 'POST', '/api/conversations', { userId: viewer.id }), 'open');
        expect((await as(third, 'POST', '/api/conversations', { userId: other.id })).statusCode).toBe(201);
        expect((await as(other, 'POST', '/api/conversations', { userId: third.id })).statusCode).toBe(200);
        await heard(thirdTab, 'conversation.updated', '');
      },
      'message.request': async () => {
        const fourth = await member(t);
        const fourthTab = await tab(fourth);
        const request = (await as(other, 'POST', '/api/conversations', { userId: fourth.id })).json().conversation.id;
        expect(
          (await as(other, 'POST', `/api/conversations/${request}/messages`, { content: 'Salut' })).statusCode,
        ).toBe(201);
        await heard(fourthTab, 'message.request', request);
        fourthTab.close();
      },
      'message.created': async () => {
        refused(
          await as(other, 'POST', `/api/conversations/${conversation}/messages`, { content: 'Salut' }),
          'message',
        );
        // The third opened this one: it is accepted for them, so they hear its messages.
        const withThird = (await as(other, 'POST', '/api/conversations', { userId: third.id })).json().conversation.id;
        expect(
          (await as(other, 'POST', `/api/conversations/${withThird}/messages`, { content: 'Salut' })).statusCode,
        ).toBe(201);
        await heard(thirdTab, 'message.created', other.id);
      },
      'post.deleted': async () => {
        expect((await as(other, 'DELETE', `/api/posts/${otherPost}`)).statusCode).toBe(204);
        await heard(thirdTab, 'post.deleted', otherPost);
      },
      'moderation.notice': 'a staff decision, sent only to the member it concerns',
      'conversation.closed':
        'sent only to the one left in a conversation when the other deletes their account (their blocks go with it)',
    };
    expect(Object.keys(triggers).sort()).toEqual([...REALTIME_EVENT_TYPES].sort());
    for (const trigger of Object.values(triggers)) if (typeof trigger === 'function') await trigger();

    await barrier(t.app, [viewerTab, otherTab, thirdTab]);
    expect(otherPost).not.toBe('');
    const leaks = viewerTab.raw.filter((r) => [other.id, otherPost, nickname, conversation].some((s) => r.includes(s)));
    expect(leaks).toEqual([]);
    // The viewer's own post's events still reach them: the socket was listening all along.
    expect((await as(third, 'POST', `/api/posts/${viewerPost}/like`)).statusCode).toBe(200);
    await heard(viewerTab, 'post.liked', viewerPost);
    for (const s of [viewerTab, otherTab, thirdTab]) s.close();
  });

  it.each(DIRECTIONS)(
    'keeps from both of them a message of theirs still on the bus when the block lands, when %s',
    async (direction) => {
      const [viewer, other] = [await member(t), await member(t)];
      const conversation = (
        await call(t, { method: 'POST', url: '/api/conversations', token: viewer.token, payload: { userId: other.id } })
      ).json().conversation.id;
      expect(
        (
          await call(t, {
            method: 'POST',
            url: '/api/conversations',
            token: other.token,
            payload: { userId: viewer.id },
          })
        ).statusCode,
      ).toBe(200);
      // A busy bus: the message is stored and acknowledged, its events reach the hub after the block.
      const bus = t.app.ctx.bus;
      const deliver = bus.publishMany.bind(bus);
      const late: RealtimeEvent[] = [];
      bus.publishMany = async (events) => {
        late.push(...events);
      };
      try {
        expect(
          (
            await call(t, {
              method: 'POST',
              url: `/api/conversations/${conversation}/messages`,
              token: viewer.token,
              payload: { content: 'Salut' },
            })
          ).statusCode,
        ).toBe(201);
      } finally {
        bus.publishMany = deliver;
      }
      expect(late.map((e) => e.type)).toContain('message.created');
      await block(direction, viewer, other);
      const tabs = [await tab(viewer), await tab(other)];
      await deliver(late);
      await barrier(t.app, tabs);
      for (const socket of tabs) {
        expect(socket.raw.filter((r) => r.includes(conversation))).toEqual([]);
        socket.close();
      }
    },
  );
});
