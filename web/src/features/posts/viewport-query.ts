/**
 * The map's feed by viewport (issue 4 item 6): `GET /api/posts/viewport` for what lies in the
 * view (points from zoom 9 on, server grid clusters and lone posts below), kept current by the
 * realtime socket (addPostToCache / removePostFromCache update every viewport answer), and, only
 * while the socket is down, by `GET /api/posts/changes?since=<cursor>` every 5 s (410 → reload).
 */
import { useEffect, useMemo, useState } from 'react';
import { type QueryClient, keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ClusterDto, type Mood, MOODS, POST_LIFETIME_MS, TIMING, changesResponseSchema, viewportResponseSchema } from '@moodmap/core';
import { ApiError, api } from '../../lib/api.ts';
import { useRealtimeStore } from '../../lib/realtime.ts';
import { type PostDto, parseAnswer } from './post-types.ts';
import { EXTRA_POSTS_KEY, POSTS_KEY, REFRESH_POSTS_EVENT, VIEWPORT_PREFIX, addPostToCache, bridgePostsRealtime, recentSince, removePostFromCache, sequenceNow } from './posts-query.ts';

export type Bbox = [number, number, number, number];

/** A server grid cluster (core's clusterSchema); clusters built in the browser may miss moods. */
export interface ServerCluster extends Omit<ClusterDto, 'moods'> {
  moods: Partial<ClusterDto['moods']>;
}

export interface ViewportFeed {
  points: PostDto[];
  clusters: ServerCluster[];
  cursor: string | null;
  serverTime: string;
  bbox: Bbox;
  zoom: number;
}

/** Bounds rounded outwards on a grid that follows the zoom, so small pans share one answer. */
export function roundBounds([west, south, east, north]: Bbox, zoom: number): Bbox {
  const step = Math.max(0.001, 90 / 2 ** Math.floor(zoom) / 4);
  const down = (v: number) => Math.floor(v / step) * step;
  const up = (v: number) => Math.ceil(v / step) * step;
  const r = (v: number) => Math.round(v * 1e6) / 1e6;
  return [r(Math.max(-180, down(west))), r(Math.max(-90, down(south))), r(Math.min(180, up(east))), r(Math.min(90, up(north)))];
}

export function viewportKey(bbox: Bbox, zoom: number, moods: readonly Mood[]) {
  return [...VIEWPORT_PREFIX, bbox, Math.floor(zoom), [...moods].sort().join(',')] as const;
}

export function inBbox(post: PostDto, [west, south, east, north]: Bbox): boolean {
  return post.latitude >= south && post.latitude <= north && post.longitude >= west && post.longitude <= east;
}

let lastCursor: string | null = null;

export async function fetchViewport(bbox: Bbox, zoom: number, moods: readonly Mood[], signal?: AbortSignal): Promise<ViewportFeed> {
  const since = sequenceNow();
  const [west, south, east, north] = bbox;
  const params = new URLSearchParams({ west: String(west), south: String(south), east: String(east), north: String(north), zoom: String(Math.floor(zoom)) });
  if (moods.length > 0 && moods.length < MOODS.length) params.set('moods', [...moods].sort().join(','));
  const answer = parseAnswer(viewportResponseSchema, await api<unknown>(`/api/posts/viewport?${params}`, { signal }));
  let points = answer.points;
  // Changes pushed while the answer was on its way are replayed over it.
  for (const change of recentSince(since)) {
    points = points.filter((p) => p.id !== (change.kind === 'created' ? change.post.id : change.id));
    if (change.kind === 'created' && inBbox(change.post, bbox)) points = [change.post, ...points];
  }
  const { cursor, clusters, serverTime } = answer;
  lastCursor = cursor;
  return {
    points,
    clusters,
    cursor,
    serverTime,
    bbox,
    zoom: Math.floor(zoom),
  };
}

/** One fallback poll: the changes since the last cursor, applied through the cache helpers. */
export async function pollChanges(client: QueryClient): Promise<void> {
  if (!lastCursor) return;
  try {
    const changes = parseAnswer(changesResponseSchema, await api<unknown>(`/api/posts/changes?since=${encodeURIComponent(lastCursor)}`));
    for (const post of changes.created) addPostToCache(client, post);
    for (const id of changes.deleted) removePostFromCache(client, id);
    lastCursor = changes.cursor;
  } catch (error) {
    if (error instanceof ApiError && error.status === 410) {
      lastCursor = null;
      await client.invalidateQueries({ queryKey: VIEWPORT_PREFIX });
    }
  }
}

/** Test hook. */
export function resetViewportForTests(): void {
  lastCursor = null;
}

/** The map's posts and server clusters for a (debounced) view. */
export function useViewportFeed(view: { bbox: Bbox; zoom: number } | null, moods: readonly Mood[]) {
  const client = useQueryClient();
  const connected = useRealtimeStore((s) => s.connected);
  useEffect(() => bridgePostsRealtime(client), [client]);
  const bbox = view ? roundBounds(view.bbox, view.zoom) : null;
  const zoom = view ? Math.floor(view.zoom) : 0;
  const key = viewportKey(bbox ?? [0, 0, 0, 0], zoom, moods);
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchViewport(bbox!, zoom, moods, signal),
    enabled: bbox !== null,
    placeholderData: keepPreviousData,
    staleTime: 45_000,
  });
  // Posts put in the cache from elsewhere (a search result to focus) are drawn wherever they are.
  const extra = useQuery<{ posts: PostDto[] }>({ queryKey: EXTRA_POSTS_KEY, queryFn: () => ({ posts: [] }), enabled: false });

  // Fallback poll of the changes while the socket is down.
  useEffect(() => {
    if (connected) return;
    const timer = setInterval(() => void pollChanges(client), TIMING.postsRefreshMs);
    return () => clearInterval(timer);
  }, [client, connected]);

  useEffect(() => {
    const onRefresh = () => void client.refetchQueries({ queryKey: POSTS_KEY, type: 'active' }, { cancelRefetch: false });
    window.addEventListener(REFRESH_POSTS_EVENT, onRefresh);
    return () => window.removeEventListener(REFRESH_POSTS_EVENT, onRefresh);
  }, [client]);

  const [tick, setTick] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setTick(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);

  const data = query.data;
  const offset = useMemo(() => {
    const server = data ? Date.parse(data.serverTime) : NaN;
    return Number.isFinite(server) ? server - (query.dataUpdatedAt || Date.now()) : 0;
  }, [data, query.dataUpdatedAt]);
  const extraPosts = extra.data?.posts;
  const posts = useMemo(() => {
    const seen = new Set<string>();
    const all: PostDto[] = [];
    for (const p of [...(data?.points ?? []), ...(extraPosts ?? [])]) {
      if (seen.has(p.id)) continue;
      seen.add(p.id);
      all.push(p);
    }
    const cutoff = tick + offset - POST_LIFETIME_MS;
    return all.filter((p) => {
      const created = Date.parse(p.createdAt);
      return !Number.isFinite(created) || created > cutoff;
    });
  }, [data, extraPosts, offset, tick]);
  const clusters = useMemo(() => (data && data.zoom < 9 ? data.clusters : []), [data]);

  return { posts, clusters, offsetMs: offset, isError: query.isError, isPending: query.isPending, error: query.error };
}
