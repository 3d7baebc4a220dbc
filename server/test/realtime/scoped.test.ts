/**
 * Post events reach only the sockets whose map shows the post: each tab sends its
 * view (`{type:'view', west, south, east, north}`) and moves it with the map; a tab that sent
 * none gets no post event, and still gets its private messages. Likes and comments are scoped
 * by their post's place like the post itself. Every recipient receives the same bytes.
 */
import { describe, expect, it } from 'vitest';
import type { RealtimeView } from '@moodmap/core';
import { BUS_RESUMED } from '../../src/adapters/bus/types.ts';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteListeningApp } from '../helpers/suite-app.ts';
import { barrier, connectSocket, type TestSocket } from '../helpers/ws.ts';
import { member, publish } from '../interactions/fixtures.ts';

type Frame = TestSocket['frames'][number];
type Bounds = Omit<RealtimeView, 'type'>;

const PARIS_VIEW: Bounds = { west: 2.2, south: 48.8, east: 2.5, north: 48.92 };
const LYON_VIEW: Bounds = { west: 4.7, south: 45.7, east: 4.95, north: 45.82 };
const PARIS = { latitude: 48.8566, longitude: 2.3522 };
const LYON = { latitude: 45.764, longitude: 4.8357 };

/** A tab watching `bounds`; resolves once the hub has taken the view (a ping sent after it is answered). */
async function watching(base: string, bounds: Bounds | null, token?: string): Promise<TestSocket> {
  const socket = await connectSocket(base);
  await socket.next((f) => f.type === 'ready');
  if (token) {
    socket.send({ type: 'auth', token });
    await socket.next((f) => f.type === 'ready' && f.userId !== null);
  }
  if (bounds) await look(socket, bounds);
  return socket;
}

/** Frames are handled in order: the pong comes after the view is in place. */
async function look(socket: TestSocket, bounds: Bounds): Promise<void> {
  const pongs = socket.frames.filter((f) => f.type === 'pong').length;
  socket.send({ type: 'view', ...bounds });
  socket.send({ type: 'ping' });
  await socket.next(() => socket.frames.filter((f) => f.type === 'pong').length > pongs);
}

const markerEvent = (id: string, at: { latitude: number; longitude: number }) => ({
  type: 'post.created',
  data: { post: { id, ...at } },
  at,
});
const created = (id: string) => (f: Frame) =>
  f.type === 'post.created' && (f.data as { post: { id: string } }).post.id === id;

describe.each(engines)('realtime scoped to the view on %s', (engine) => {
  const t = suiteListeningApp(engine);

  /** Publishes a post event at each place, in order: `tab` receives those of `seen`, and none of the others. */
  async function expectOnly(
    tab: TestSocket,
    places: Record<string, { latitude: number; longitude: number }>,
    seen: string[],
  ): Promise<void> {
    for (const [id, at] of Object.entries(places)) await t.app.ctx.bus.publish(markerEvent(id, at));
    for (const id of seen) await tab.next(created(id));
    await barrier(t.app, [tab]);
    for (const id of Object.keys(places).filter((id) => !seen.includes(id)))
      expect(tab.frames.some(created(id))).toBe(false);
  }

  it('a tab watching Paris gets nothing of a post in Lyon; the tab watching Lyon gets it', async () => {
    const paris = await watching(t.base, PARIS_VIEW);
    const lyon = await watching(t.base, LYON_VIEW);
    await t.app.ctx.bus.publish(markerEvent('in-lyon', LYON));
    await t.app.ctx.bus.publish(markerEvent('in-paris', PARIS));
    await lyon.next(created('in-lyon'));
    await paris.next(created('in-paris'));
    await barrier(t.app, [paris, lyon]);
    expect(paris.frames.some(created('in-lyon'))).toBe(false);
    expect(lyon.frames.some(created('in-paris'))).toBe(false);
    paris.close();
    lyon.close();
  });

  it("scopes likes and comments by their post's place", async () => {
    const lyonAuthor = await member(t);
    const parisAuthor = await member(t);
    const fan = await member(t);
    const inLyon = await publish(t, lyonAuthor.token, LYON);
    const inParis = await publish(t, parisAuthor.token, PARIS);
    const paris = await watching(t.base, PARIS_VIEW);
    const lyon = await watching(t.base, LYON_VIEW);
    expect((await call(t, { method: 'POST', url: `/api/posts/${inLyon.id}/like`, token: fan.token })).statusCode).toBe(
      200,
    );
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${inLyon.id}/comments`,
          token: fan.token,
          payload: { content: 'Belle vue' },
        })
      ).statusCode,
    ).toBe(201);
    expect((await call(t, { method: 'POST', url: `/api/posts/${inParis.id}/like`, token: fan.token })).statusCode).toBe(
      200,
    );
    const about = (postId: string) => (f: Frame) =>
      (f.type === 'post.liked' || f.type === 'post.commented') && (f.data as { postId: string }).postId === postId;
    await lyon.next((f) => f.type === 'post.liked' && about(inLyon.id)(f));
    await lyon.next((f) => f.type === 'post.commented' && about(inLyon.id)(f));
    await paris.next((f) => f.type === 'post.liked' && about(inParis.id)(f));
    await barrier(t.app, [paris, lyon]);
    expect(paris.frames.some(about(inLyon.id))).toBe(false);
    expect(lyon.frames.some(about(inParis.id))).toBe(false);
    paris.close();
    lyon.close();
  });

  it('a post on the edge of a view reaches it; one just outside does not', async () => {
    const tab = await watching(t.base, PARIS_VIEW);
    await expectOnly(
      tab,
      {
        outside: { latitude: PARIS_VIEW.north + 0.0001, longitude: PARIS_VIEW.east },
        'north-east': { latitude: PARIS_VIEW.north, longitude: PARIS_VIEW.east },
        'south-west': { latitude: PARIS_VIEW.south, longitude: PARIS_VIEW.west },
      },
      ['north-east', 'south-west'],
    );
    tab.close();
  });

  it('a view across the antimeridian, sent unwrapped as MapLibre does, sees both sides and nothing else', async () => {
    const fiji = await watching(t.base, { west: 170, south: -25, east: 190, north: -10 });
    await expectOnly(
      fiji,
      {
        'west-of-line': { latitude: -17.7, longitude: 178.4 },
        'east-of-line': { latitude: -15, longitude: -175 },
        greenwich: { latitude: -15, longitude: 0 },
      },
      ['west-of-line', 'east-of-line'],
    );
    fiji.close();
  });

  it('a view spanning the whole world sees everything', async () => {
    const world = await watching(t.base, { west: -250, south: -90, east: 310, north: 90 });
    await t.app.ctx.bus.publish(markerEvent('anywhere', { latitude: -54, longitude: -67 }));
    await world.next(created('anywhere'));
    world.close();
  });

  it('moving the map changes what arrives; a malformed view keeps the previous one', async () => {
    const tab = await watching(t.base, PARIS_VIEW);
    await look(tab, LYON_VIEW);
    await t.app.ctx.bus.publish(markerEvent('paris-after-move', PARIS));
    await t.app.ctx.bus.publish(markerEvent('lyon-after-move', LYON));
    await tab.next(created('lyon-after-move'));
    await look(tab, { west: 0, south: 50, east: 1, north: 40 }); // south above north: ignored
    await t.app.ctx.bus.publish(markerEvent('lyon-again', LYON));
    await tab.next(created('lyon-again'));
    await barrier(t.app, [tab]);
    expect(tab.frames.some(created('paris-after-move'))).toBe(false);
    tab.close();
  });

  it('a tab without a view gets no post event, and still gets its private messages', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const tab = await watching(t.base, null, marc.token);
    const conversation = (
      await call(t, { method: 'POST', url: '/api/conversations', token: lea.token, payload: { userId: marc.id } })
    ).json().conversation.id;
    // Marc contacted Léa too: accepted, so her messages reach his tabs (a request would be quiet).
    expect(
      (await call(t, { method: 'POST', url: '/api/conversations', token: marc.token, payload: { userId: lea.id } }))
        .statusCode,
    ).toBe(200);
    await t.app.ctx.bus.publish(markerEvent('unseen', PARIS));
    await t.app.ctx.bus.publish({ type: 'post.deleted', data: { id: 'unseen', ...PARIS }, at: PARIS });
    const sent = await call(t, {
      method: 'POST',
      url: `/api/conversations/${conversation}/messages`,
      token: lea.token,
      payload: { content: 'Tu es là ?' },
    });
    expect(sent.statusCode).toBe(201);
    const frame = await tab.next((f) => f.type === 'message.created');
    expect((frame.data as { message: { content: string } }).message.content).toBe('Tu es là ?');
    await barrier(t.app, [tab]);
    expect(tab.frames.map((f) => f.type).filter((type) => type.startsWith('post.'))).toEqual([]);
    tab.close();
  });

  it('sends every recipient the same bytes, once per event', async () => {
    const tabs = await Promise.all([
      watching(t.base, PARIS_VIEW),
      watching(t.base, PARIS_VIEW),
      watching(t.base, { west: 2, south: 48, east: 3, north: 49 }),
    ]);
    await t.app.ctx.bus.publish(markerEvent('shared', PARIS));
    for (const tab of tabs) await tab.next(created('shared'));
    const bytes = tabs.map((tab) => tab.raw.filter((text) => text.includes('"shared"')));
    expect(bytes[0]).toHaveLength(1);
    expect(bytes[1]).toEqual(bytes[0]);
    expect(bytes[2]).toEqual(bytes[0]);
    // The bus's routing fields stay on the server.
    expect(JSON.parse(bytes[0][0])).toEqual({ type: 'post.created', data: { post: { id: 'shared', ...PARIS } } });
    // So does its own news (a reconnected link), which is no event for browsers.
    await t.app.ctx.bus.publish({ type: BUS_RESUMED, data: null });
    await barrier(t.app, tabs);
    for (const tab of tabs) expect(tab.frames.some((f) => f.type === BUS_RESUMED)).toBe(false);
    for (const tab of tabs) tab.close();
  });
});
