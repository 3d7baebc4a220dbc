// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { useSessionStore } from '../src/features/auth/session-store.ts';
import { useUiStore } from '../src/lib/ui-store.ts';
import { useToastStore } from '../src/ui/toasts/toast-store.ts';
import { MY_ACTIVE_POST_KEY, POSTS_KEY, resetPostsRealtimeForTests } from '../src/features/posts/posts-query.ts';
import { bridgeInteractionsRealtime } from '../src/features/posts/interactions-realtime.ts';
import { commentsKey } from '../src/features/comments/comments-cache.ts';
import { stopRealtime } from '../src/lib/realtime.ts';
import { LIKE_REFETCH_MS } from '../src/features/likes/use-like.ts';
import { deferred, fakeApi, json, WAIT } from './support/auth-fixtures.ts';
import { cachedPost, feedOf, makeComment, makePost, renderPopup } from './support/interactions.tsx';
import { FakeWebSocket, installFakeWebSocket } from './support/fake-websocket.ts';

const toasts = () => useToastStore.getState().toasts;
const likeButton = () => screen.getByTestId('post-like');
const likeCount = () => screen.getByTestId('post-like-count').textContent;

beforeEach(() => {
  useSessionStore.setState({ status: 'ready', user: { id: 'me', email: 'me@x.fr', nickname: 'Moi' } });
  useUiStore.setState({ authMode: null });
  useToastStore.setState({ toasts: [] });
});
afterEach(() => {
  cleanup();
  stopRealtime();
  resetPostsRealtimeForTests();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('likes in the popup', () => {
  it('shows the count and my state, likes with PUT optimistically on every cached copy, then refetches the post after 1 s', async () => {
    const answer = deferred<Response>();
    const api = fakeApi({
      'PUT /api/posts/p-1/like': () => answer.promise,
      'GET /api/posts/p-1': () => json(200, { post: makePost({ likesCount: 6, isLikedByUser: true }) }),
    });
    const { client } = renderPopup(makePost({ likesCount: 4 }));
    // Another cache holding the same post (my active post, or a viewport answer) follows too.
    client.setQueryData(MY_ACTIVE_POST_KEY, makePost({ likesCount: 4 }));
    client.setQueryData(['posts', 'viewport', 'x'], { points: [makePost({ likesCount: 4 })], clusters: [] });
    expect(likeCount()).toBe('4');
    expect(likeButton().getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(likeButton());
    // Before the server answers.
    await waitFor(() => expect(likeCount()).toBe('5'));
    expect(likeButton().getAttribute('aria-pressed')).toBe('true');
    expect(client.getQueryData<{ likesCount: number }>(MY_ACTIVE_POST_KEY)?.likesCount).toBe(5);
    expect(
      client.getQueryData<{ points: { likesCount: number; isLikedByUser: boolean }[] }>(['posts', 'viewport', 'x'])
        ?.points[0],
    ).toMatchObject({ likesCount: 5, isLikedByUser: true });
    expect(api.callsTo('PUT /api/posts/p-1/like')).toHaveLength(1);

    // The refetch waits LIKE_REFETCH_MS after the answer: the clock is moved, not waited for.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await act(async () => answer.resolve(json(200, { likesCount: 5, isLikedByUser: true })));
      expect(likeCount()).toBe('5');
      await act(async () => vi.advanceTimersByTime(LIKE_REFETCH_MS - 1));
      expect(api.callsTo('GET /api/posts/p-1')).toHaveLength(0);
      await act(async () => vi.advanceTimersByTime(1));
      expect(api.callsTo('GET /api/posts/p-1')).toHaveLength(1);
      // The cache tells its observers on a timer of its own: let it run before the real clock returns.
      await act(async () => vi.runOnlyPendingTimers());
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(likeCount()).toBe('6'));
  });

  it('unlikes with DELETE; reverts on failure, says so, and refetches the post', async () => {
    const answer = deferred<Response>();
    const fresh = deferred<Response>();
    const api = fakeApi({
      'DELETE /api/posts/p-1/like': () => answer.promise,
      'GET /api/posts/p-1': () => fresh.promise,
    });
    const { client } = renderPopup(makePost({ likesCount: 3, isLikedByUser: true }));
    fireEvent.click(likeButton());
    await waitFor(() => expect(likeCount()).toBe('2'));
    expect(likeButton().getAttribute('aria-pressed')).toBe('false');
    expect(api.calls.filter((c) => c.url.endsWith('/like')).map((c) => c.method)).toEqual(['DELETE']);
    answer.resolve(
      json(500, { error: { code: 'internal_error', message: 'Une erreur est survenue. Veuillez réessayer.' } }),
    );
    await waitFor(() => expect(likeButton().getAttribute('aria-pressed')).toBe('true'));
    expect(likeCount()).toBe('3');
    expect(toasts().map((t) => [t.type, t.message])).toContainEqual([
      'error',
      "Impossible d'enregistrer votre J'aime. Veuillez réessayer.",
    ]);
    // On failure the like is reverted by a refetch.
    await waitFor(() => expect(api.callsTo('GET /api/posts/p-1')).toHaveLength(1));
    // Someone else liked it meanwhile: the server's count wins.
    fresh.resolve(json(200, { post: makePost({ likesCount: 4, isLikedByUser: true }) }));
    await waitFor(() => expect(cachedPost(client)?.likesCount).toBe(4));
    await waitFor(() => expect(likeCount()).toBe('4'));
  });

  it('asks a visitor to sign in instead of liking', () => {
    useSessionStore.setState({ user: null });
    const api = fakeApi({});
    renderPopup(makePost({ likesCount: 1 }));
    fireEvent.click(likeButton());
    expect(likeCount()).toBe('1');
    expect(api.calls).toHaveLength(0);
    expect(toasts().map((t) => t.message)).toContain('Veuillez vous connecter pour aimer cette publication');
    expect(useUiStore.getState().authMode).toBe('login');
  });
});

describe('live likes and comments', () => {
  it("applies other people's likes and comments to the cache, keeping my own like state", async () => {
    installFakeWebSocket();
    const client = new QueryClient();
    client.setQueryData(POSTS_KEY, feedOf(makePost({ likesCount: 1, isLikedByUser: true, commentsCount: 1 })));
    client.setQueryData(commentsKey('p-1'), [makeComment({ id: 'c-1' })]);
    const stop = bridgeInteractionsRealtime(client);
    const socket = FakeWebSocket.sockets[0]!;
    socket.open();

    socket.receive({ type: 'post.liked', data: { postId: 'p-1', likesCount: 7 } });
    expect(cachedPost(client)).toMatchObject({ likesCount: 7, isLikedByUser: true });
    socket.receive({ type: 'post.liked', data: { postId: 'p-1', likesCount: 'lots' } });
    expect(cachedPost(client)?.likesCount).toBe(7);

    const added = makeComment({ id: 'c-2', content: 'Magnifique', createdAt: '2026-03-01T10:03:00.000Z' });
    socket.receive({ type: 'post.commented', data: { postId: 'p-1', commentsCount: 2, comment: added } });
    // The comment is read with core's schema, fetched on first use: it lands a moment later.
    await vi.waitFor(
      () => expect(client.getQueryData<{ id: string }[]>(commentsKey('p-1'))?.map((c) => c.id)).toEqual(['c-1', 'c-2']),
      WAIT,
    );
    expect(cachedPost(client)?.commentsCount).toBe(2);

    socket.receive({
      type: 'post.commented',
      data: { postId: 'p-1', commentsCount: 2, comment: { ...added, content: 'Magnifique !', isEdited: true } },
    });
    await vi.waitFor(
      () =>
        expect(client.getQueryData<{ content: string; isEdited: boolean }[]>(commentsKey('p-1'))?.[1]).toMatchObject({
          content: 'Magnifique !',
          isEdited: true,
        }),
      WAIT,
    );

    socket.receive({ type: 'post.commented', data: { postId: 'p-1', commentsCount: 1, removedCommentId: 'c-1' } });
    await vi.waitFor(() => expect(cachedPost(client)?.commentsCount).toBe(1), WAIT);
    expect(client.getQueryData<{ id: string }[]>(commentsKey('p-1'))?.map((c) => c.id)).toEqual(['c-2']);
    stop();
  });
});
