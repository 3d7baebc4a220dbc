// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { PostDto } from '@moodmap/core';
import { REALTIME_VIEW_DEBOUNCE_MS } from '@moodmap/core';
import { BACKOFF_MAX_MS, backoffDelay, setRealtimeView, stopRealtime, useRealtimeStore } from '../src/lib/realtime.ts';
import { applySession, resetTokenStateForTests } from '../src/lib/auth-tokens.ts';
import { POSTS_KEY, bridgePostsRealtime, resetPostsRealtimeForTests } from '../src/features/posts/posts-query.ts';
import {
  type Bbox,
  fetchViewport,
  pollChanges,
  resetViewportForTests,
  useViewportFeed,
  viewportKey,
} from '../src/features/posts/viewport-query.ts';
import { type MarkerDto, toMarker } from '../src/features/posts/post-types.ts';
import { deferred, json, WAIT } from './support/auth-fixtures.ts';
import { FakeWebSocket, installFakeWebSocket } from './support/fake-websocket.ts';
import { makeAuthor, makePost } from './support/posts.ts';

const last = () => FakeWebSocket.sockets[FakeWebSocket.sockets.length - 1]!;

function post(id: string): PostDto {
  return makePost({
    id,
    userId: 'u',
    category: 'love',
    content: id,
    latitude: 10,
    longitude: 20,
    nickname: 'Nina',
    createdAt: new Date().toISOString(),
    author: makeAuthor('Nina'),
  });
}

const marker = (id: string): MarkerDto => toMarker(post(id));
const VIEW: { bbox: Bbox; zoom: number } = { bbox: [19, 9, 21, 11], zoom: 12 };
const VIEW_KEY = viewportKey(VIEW.bbox, VIEW.zoom, []);
const answer = (...ids: string[]) => ({
  points: ids.map(marker),
  clusters: [],
  cursor: 'c0',
  serverTime: new Date().toISOString(),
  bbox: VIEW.bbox,
  zoom: 12,
});
const ids = (client: QueryClient) => client.getQueryData<{ points: MarkerDto[] }>(VIEW_KEY)?.points.map((p) => p.id);

beforeEach(() => {
  installFakeWebSocket();
});

afterEach(() => {
  cleanup();
  stopRealtime();
  resetPostsRealtimeForTests();
  resetViewportForTests();
  resetTokenStateForTests();
  localStorage.clear();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('realtime client', () => {
  it('backs off from 0.5 s to 10 s, with jitter', () => {
    expect(backoffDelay(0, () => 0)).toBe(250);
    expect(backoffDelay(0, () => 1)).toBe(500);
    expect(backoffDelay(1, () => 1)).toBe(1000);
    expect(backoffDelay(4, () => 1)).toBe(8000);
    expect(backoffDelay(5, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(30, () => 0.5)).toBe(7500);
  });

  it('opens one socket, applies post events to the cache, and follows the session token', async () => {
    const client = new QueryClient();
    client.setQueryData(VIEW_KEY, answer('a'));
    bridgePostsRealtime(client);
    bridgePostsRealtime(client);
    expect(FakeWebSocket.sockets).toHaveLength(1);
    expect(last().url).toMatch(/^ws:\/\/.+\/api\/realtime$/);
    expect(useRealtimeStore.getState().connected).toBe(false);

    last().open();
    expect(useRealtimeStore.getState().connected).toBe(true);
    last().receive({ type: 'ready', userId: null });

    // Markers are read with core's schema, fetched on first use: events land a moment later, in order.
    last().receive({ type: 'post.created', data: { post: marker('b') } });
    await vi.waitFor(() => expect(ids(client)).toEqual(['b', 'a']), WAIT);
    last().receive({ type: 'post.created', data: { post: { id: 'broken' } } });
    last().receive({ type: 'post.deleted', data: { id: 'a' } });
    await vi.waitFor(() => expect(ids(client)).toEqual(['b']), WAIT);

    applySession({ accessToken: 'A1', expiresIn: 900, user: {} });
    expect(last().sent).toContainEqual({ type: 'auth', token: 'A1' });
    last().receive({ type: 'ready', userId: 'u-1' });
    expect(useRealtimeStore.getState().userId).toBe('u-1');
  });

  it('reconnects with backoff after a cut, re-authenticates, and refetches the feed once (catch-up)', () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0.5); // waits of 375 ms, then 750 ms
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    applySession({ accessToken: 'A1', expiresIn: 900, user: {} });
    bridgePostsRealtime(client);
    last().open();
    expect(last().sent).toEqual([{ type: 'auth', token: 'A1' }]);
    expect(invalidate).not.toHaveBeenCalled();

    last().close();
    expect(useRealtimeStore.getState().connected).toBe(false);
    act(() => vi.advanceTimersByTime(374));
    expect(FakeWebSocket.sockets).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeWebSocket.sockets).toHaveLength(2);
    last().close(); // the server is still down: the next wait is longer
    act(() => vi.advanceTimersByTime(749));
    expect(FakeWebSocket.sockets).toHaveLength(2);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeWebSocket.sockets).toHaveLength(3);

    last().open();
    expect(last().sent).toEqual([{ type: 'auth', token: 'A1' }]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: POSTS_KEY });
  });

  it('retries a socket that fails with an error and no close event (a refused address)', () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    bridgePostsRealtime(new QueryClient());
    last().refuse();
    expect(useRealtimeStore.getState().connected).toBe(false);
    act(() => vi.advanceTimersByTime(375));
    expect(FakeWebSocket.sockets).toHaveLength(2);
    // A late close event of the refused socket schedules nothing more.
    FakeWebSocket.sockets[0]!.onclose?.();
    act(() => vi.advanceTimersByTime(10_000));
    expect(FakeWebSocket.sockets).toHaveLength(2);
    last().open();
    expect(useRealtimeStore.getState().connected).toBe(true);
  });

  it('keeps a post pushed while the viewport was being fetched', async () => {
    const client = new QueryClient();
    bridgePostsRealtime(client);
    last().open();
    const pending = deferred<Response>();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => pending.promise),
    );
    const fetching = fetchViewport(VIEW.bbox, VIEW.zoom, []);
    last().receive({ type: 'post.created', data: { post: marker('new') } });
    pending.resolve(
      json(200, { points: [marker('old')], clusters: [], cursor: 'c1', serverTime: new Date().toISOString() }),
    );
    expect((await fetching).points.map((p) => p.id)).toEqual(['new', 'old']);
  });

  it('polls the changes every 5 s only while the socket is down, and refetches on the refreshPosts event', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(async (_url: string) =>
      json(200, {
        points: [],
        clusters: [],
        created: [],
        deleted: [],
        cursor: 'c1',
        serverTime: new Date().toISOString(),
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const calls = (path: string) => fetchMock.mock.calls.filter(([url]) => String(url).includes(path)).length;
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    function Probe() {
      useViewportFeed(VIEW, []);
      return null;
    }
    render(
      <QueryClientProvider client={client}>
        <Probe />
      </QueryClientProvider>,
    );
    await act(async () => vi.advanceTimersByTimeAsync(10));
    expect(calls('/api/posts/viewport')).toBe(1);
    await act(async () => vi.advanceTimersByTimeAsync(5_000));
    expect(calls('/api/posts/changes?since=c1')).toBe(1);

    await act(async () => last().open());
    await act(async () => vi.advanceTimersByTimeAsync(20_000));
    expect(calls('/api/posts/changes')).toBe(1);

    await act(async () => {
      window.dispatchEvent(new Event('refreshPosts'));
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(calls('/api/posts/viewport')).toBe(2);
  });
});

describe('the view frame: a socket hears only the posts in its view', () => {
  it('sends the fetched bounds once the map has been still for the debounce, and again on reconnect', () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const client = new QueryClient();
    bridgePostsRealtime(client);
    last().open();
    const views = () => last().sent.filter((m) => (m as { type?: string }).type === 'view');
    setRealtimeView({ west: 1, south: 2, east: 3, north: 4 });
    setRealtimeView({ west: 5, south: 6, east: 7, north: 8 });
    act(() => vi.advanceTimersByTime(REALTIME_VIEW_DEBOUNCE_MS - 1));
    expect(views()).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    expect(views()).toEqual([{ type: 'view', west: 5, south: 6, east: 7, north: 8 }]);
    // The same view is not sent twice on one socket.
    setRealtimeView({ west: 5, south: 6, east: 7, north: 8 });
    act(() => vi.advanceTimersByTime(REALTIME_VIEW_DEBOUNCE_MS));
    expect(views()).toHaveLength(1);

    last().close();
    act(() => vi.advanceTimersByTime(BACKOFF_MAX_MS));
    last().open();
    expect(views()).toEqual([{ type: 'view', west: 5, south: 6, east: 7, north: 8 }]);
  });

  it('the changes poll asks for the bounds of the last viewport read', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      String(url).includes('/changes')
        ? json(200, { created: [marker('n')], deleted: [], cursor: 'c2', serverTime: new Date().toISOString() })
        : json(200, { points: [], clusters: [], cursor: 'c1', serverTime: new Date().toISOString() }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient();
    client.setQueryData(VIEW_KEY, answer());
    await fetchViewport(VIEW.bbox, VIEW.zoom, []);
    await pollChanges(client);
    const url = new URL(String(fetchMock.mock.calls[1]![0]), 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      since: 'c1',
      west: '19',
      south: '9',
      east: '21',
      north: '11',
    });
    expect(ids(client)).toEqual(['n']);
  });
});
