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
/** The map's viewport answers (viewport-query.ts), one per rounded view, zoom and moods. */
export const VIEWPORT_PREFIX = ['posts', 'viewport'] as const;
/** Posts shown on the map wherever they are (a search result to focus), beside the viewport. */
export const EXTRA_POSTS_KEY = ['posts', 'extra'] as const;
const EXTRA_MAX = 20;

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

export function sequenceNow(): number {
  return sequence;
}

/** The changes remembered after `since` (see `recent`). */
export function recentSince(since: number): ChangeBody[] {
  return recent.filter((change) => change.at > since);
}

interface ViewportLike {
  points: PostDto[];
  bbox?: [number, number, number, number];
}

function inView(post: PostDto, bbox: ViewportLike['bbox']): boolean {
  if (!bbox) return true;
  const [west, south, east, north] = bbox;
  return post.latitude >= south && post.latitude <= north && post.longitude >= west && post.longitude <= east;
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
  client.setQueriesData<ViewportLike>({ queryKey: VIEWPORT_PREFIX }, (data) =>
    data && Array.isArray(data.points) && inView(post, data.bbox) ? { ...data, points: [post, ...data.points.filter((p) => p.id !== post.id)] } : data,
  );
  client.setQueryData<{ posts: PostDto[] }>(EXTRA_POSTS_KEY, (extra) => (extra?.posts.some((p) => p.id === post.id) ? { posts: extra.posts.map((p) => (p.id === post.id ? post : p)) } : extra));
}

/** Keeps a post drawn on the map wherever it is (the search's focus), beside the viewport. */
export function pinPostInCache(client: QueryClient, post: PostDto): void {
  client.setQueryData<{ posts: PostDto[] }>(EXTRA_POSTS_KEY, (extra) => ({ posts: [post, ...(extra?.posts ?? []).filter((p) => p.id !== post.id)].slice(0, EXTRA_MAX) }));
}

export function removePostFromCache(client: QueryClient, id: string): void {
  remember({ kind: 'deleted', id });
  client.setQueryData<PostsFeed>(POSTS_KEY, (feed) => (feed ? withoutPost(feed, id) : feed));
  client.setQueriesData<ViewportLike>({ queryKey: VIEWPORT_PREFIX }, (data) =>
    data && Array.isArray(data.points) && data.points.some((p) => p.id === id) ? { ...data, points: data.points.filter((p) => p.id !== id) } : data,
  );
  client.setQueryData<{ posts: PostDto[] }>(EXTRA_POSTS_KEY, (extra) => (extra?.posts.some((p) => p.id === id) ? { posts: extra.posts.filter((p) => p.id !== id) } : extra));
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
