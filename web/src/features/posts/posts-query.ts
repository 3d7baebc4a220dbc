/**
 * Posts in the TanStack Query cache under ['posts', …] (spec §4 "Posts", design.md §5): the map's
 * viewport answers (viewport-query.ts), the posts pinned beside them, and any list of posts
 * cached under that prefix. The realtime socket keeps them current: 'post.created' adds,
 * 'post.deleted' removes; after a reconnect they are refetched (catch-up).
 */
import type { QueryClient } from '@tanstack/react-query';
import { onRealtimeConnection, subscribeRealtime } from '../../lib/realtime.ts';
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
