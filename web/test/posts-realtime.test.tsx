// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { PostDto } from '@moodmap/core';
import { BACKOFF_MAX_MS, backoffDelay, stopRealtime, useRealtimeStore } from '../src/lib/realtime.ts';
import { applySession, resetTokenStateForTests } from '../src/lib/auth-tokens.ts';
import { POSTS_KEY, bridgePostsRealtime, resetPostsRealtimeForTests } from '../src/features/posts/posts-query.ts';
import { type Bbox, fetchViewport, resetViewportForTests, useViewportFeed } from '../src/features/posts/viewport-query.ts';
import type { PostsFeed } from '../src/features/posts/post-types.ts';
import { deferred, json } from './support/auth-fixtures.ts';
import { FakeWebSocket, installFakeWebSocket } from './support/fake-websocket.ts';
import { makeAuthor, makePost } from './support/posts.ts';


const last = () => FakeWebSocket.sockets[FakeWebSocket.sockets.length - 1]!;

function post(id: string): PostDto {
  return makePost({ id, userId: 'u', category: 'love', content: id, latitude: 10, longitude: 20, nickname: 'Nina', createdAt: new Date().toISOString(), author: makeAuthor('Nina') });
}

const feed = (...ids: string[]): PostsFeed => ({ posts: ids.map(post), serverTime: new Date().toISOString() });
const VIEW: { bbox: Bbox; zoom: number } = { bbox: [19, 9, 21, 11], zoom: 12 };
const ids = (client: QueryClient) => client.getQueryData<PostsFeed>(POSTS_KEY)?.posts.map((p) => p.id);

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

describe('realtime client (design.md §5)', () => {
  it('backs off from 0.5 s to 10 s, with jitter', () => {
    expect(backoffDelay(0, () => 0)).toBe(250);
    expect(backoffDelay(0, () => 1)).toBe(500);
    expect(backoffDelay(1, () => 1)).toBe(1000);
    expect(backoffDelay(4, () => 1)).toBe(8000);
    expect(backoffDelay(5, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(30, () => 0.5)).toBe(7500);
  });

  it('opens one socket, applies post events to the cache, and follows the session token', () => {
    const client = new QueryClient();
    client.setQueryData(POSTS_KEY, feed('a'));
    bridgePostsRealtime(client);
    bridgePostsRealtime(client);
    expect(FakeWebSocket.sockets).toHaveLength(1);
    expect(last().url).toMatch(/^ws:\/\/.+\/api\/realtime$/);
    expect(useRealtimeStore.getState().connected).toBe(false);

    last().open();
    expect(useRealtimeStore.getState().connected).toBe(true);
    last().receive({ type: 'ready', userId: null });

    last().receive({ type: 'post.created', data: { post: post('b') } });
    expect(ids(client)).toEqual(['b', 'a']);
    last().receive({ type: 'post.created', data: { post: { id: 'broken' } } });
    expect(ids(client)).toEqual(['b', 'a']);
    last().receive({ type: 'post.deleted', data: { id: 'a' } });
    expect(ids(client)).toEqual(['b']);

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
    const answer = deferred<Response>();
    vi.stubGlobal('fetch', vi.fn(() => answer.promise));
    const fetching = fetchViewport(VIEW.bbox, VIEW.zoom, []);
    last().receive({ type: 'post.created', data: { post: post('new') } });
    answer.resolve(json(200, { points: [post('old')], clusters: [], cursor: 'c1', serverTime: new Date().toISOString() }));
    expect((await fetching).points.map((p) => p.id)).toEqual(['new', 'old']);
  });

  it('polls the changes every 5 s only while the socket is down, and refetches on the refreshPosts event', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(async (_url: string) => json(200, { points: [], clusters: [], created: [], deleted: [], cursor: 'c1', serverTime: new Date().toISOString() }));
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
