/**
 * The live feed in the TanStack Query cache under ['posts'] (spec §4 "Posts", design.md §5):
 * - fetched once, kept 45 s fresh (spec §9 "Cache");
 * - kept current by the realtime socket: 'post.created' adds, 'post.deleted' removes;
 * - polled every 5 s only while the socket is down; after a reconnect it is refetched (catch-up);
 * - refetched on the window event 'refreshPosts' (refresh button, other features).
 */
import { useEffect, useMemo, useState } from 'react';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { CACHE_TTL_MS, POST_LIFETIME_MS, TIMING } from '@moodmap/core';
import { onRealtimeConnection, subscribeRealtime, useRealtimeStore } from '../../lib/realtime.ts';
import { fetchPosts } from './posts-api.ts';
import { type PostDto, type PostsFeed, readPost } from './post-types.ts';

export const POSTS_KEY = ['posts'] as const;
export const MY_ACTIVE_POST_KEY = ['posts', 'mine', 'active'] as const;
export const REFRESH_POSTS_EVENT = 'refreshPosts';

type ChangeBody = { kind: 'created'; post: PostDto } | { kind: 'deleted'; id: string };
type Change = ChangeBody & { at: number };

/**
 * Changes pushed while a fetch is in flight would be lost when its (older) answer lands, so the
 * last few are kept and replayed over every answer that started before them.
 */
const recent: Change[] = [];
const RECENT_MAX = 200;
let sequence = 0;

function remember(change: ChangeBody): void {
  recent.push({ ...change, at: ++sequence });
  if (recent.length > RECENT_MAX) recent.splice(0, recent.length - RECENT_MAX);
}

export function withPost(feed: PostsFeed, post: PostDto): PostsFeed {
  const rest = feed.posts.filter((p) => p.id !== post.id);
  return { ...feed, posts: [post, ...rest] };
}

export function withoutPost(feed: PostsFeed, id: string): PostsFeed {
  return feed.posts.some((p) => p.id === id) ? { ...feed, posts: feed.posts.filter((p) => p.id !== id) } : feed;
}

function replay(feed: PostsFeed, since: number): PostsFeed {
  let next = feed;
  for (const change of recent) {
    if (change.at <= since) continue;
    next = change.kind === 'created' ? withPost(next, change.post) : withoutPost(next, change.id);
  }
  return next;
}

export const postsQuery = queryOptions({
  queryKey: POSTS_KEY,
  queryFn: async ({ signal }): Promise<PostsFeed> => {
    const since = sequence;
    return replay(await fetchPosts(signal), since);
  },
  staleTime: CACHE_TTL_MS.posts,
});

/** Adds a post to the cached feed (realtime event, or the answer of our own create). */
export function addPostToCache(client: QueryClient, post: PostDto): void {
  remember({ kind: 'created', post });
  client.setQueryData<PostsFeed>(POSTS_KEY, (feed) => (feed ? withPost(feed, post) : feed));
}

export function removePostFromCache(client: QueryClient, id: string): void {
  remember({ kind: 'deleted', id });
  client.setQueryData<PostsFeed>(POSTS_KEY, (feed) => (feed ? withoutPost(feed, id) : feed));
}

let bridged: QueryClient | null = null;
let unbridge: (() => void) | null = null;

/** Applies the socket's post events to `client`'s cache (once per client). */
export function bridgePostsRealtime(client: QueryClient): void {
  if (bridged === client) return;
  unbridge?.();
  bridged = client;
  const stops = [
    subscribeRealtime('post.created', (event) => {
      const post = readPost((event.data as { post?: unknown } | undefined)?.post);
      if (post) addPostToCache(client, post);
    }),
    subscribeRealtime('post.deleted', (event) => {
      const id = (event.data as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string') {
        removePostFromCache(client, id);
        void client.invalidateQueries({ queryKey: MY_ACTIVE_POST_KEY });
      }
    }),
    onRealtimeConnection(({ connected, reconnect }) => {
      // Whatever happened while the socket was down is fetched once.
      if (connected && reconnect) void client.invalidateQueries({ queryKey: POSTS_KEY });
    }),
  ];
  unbridge = () => stops.forEach((stop) => stop());
}

/** Test hook. */
export function resetPostsRealtimeForTests(): void {
  unbridge?.();
  unbridge = null;
  bridged = null;
  recent.length = 0;
}

/** Server clock minus ours, so "24 h" and "il y a 5 minutes" follow the server's clock. */
function clockOffset(feed: PostsFeed | undefined, receivedAt: number): number {
  if (!feed) return 0;
  const server = Date.parse(feed.serverTime);
  return Number.isFinite(server) ? server - receivedAt : 0;
}

/**
 * The live posts for the map. Posts past 24 h drop out locally too (checked every minute), so a
 * map left open does not keep yesterday's markers until the next fetch.
 */
export function usePostsFeed() {
  const client = useQueryClient();
  const connected = useRealtimeStore((s) => s.connected);
  useEffect(() => bridgePostsRealtime(client), [client]);
  const query = useQuery({ ...postsQuery, refetchInterval: connected ? false : TIMING.postsRefreshMs });

  useEffect(() => {
    const onRefresh = () => void client.refetchQueries({ queryKey: POSTS_KEY, exact: true }, { cancelRefetch: false });
    window.addEventListener(REFRESH_POSTS_EVENT, onRefresh);
    return () => window.removeEventListener(REFRESH_POSTS_EVENT, onRefresh);
  }, [client]);

  const [tick, setTick] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setTick(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);

  const offset = useMemo(() => clockOffset(query.data, query.dataUpdatedAt || Date.now()), [query.data, query.dataUpdatedAt]);
  const posts = useMemo(() => {
    const all = query.data?.posts ?? [];
    const cutoff = tick + offset - POST_LIFETIME_MS;
    return all.filter((p) => {
      const created = Date.parse(p.createdAt);
      return !Number.isFinite(created) || created > cutoff;
    });
  }, [query.data, offset, tick]);

  return { posts, offsetMs: offset, isError: query.isError, isPending: query.isPending, error: query.error };
}
