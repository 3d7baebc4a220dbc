/**
 * The map's feed by viewport (docs/architecture.md, "The map's feed"): `GET /api/posts/viewport`
 * for what lies in the view (markers from zoom 9 on, server grid clusters and lone posts below),
 * kept current by the realtime socket (addPostToCache / removePostFromCache update every viewport
 * answer), which is told the fetched bounds (setRealtimeView) so the server sends only the events
 * inside them, and, only while the socket is down, by
 * `GET /api/posts/changes?since=<cursor>&west=…` every 5 s for the same bounds (410 → reload).
 */
import { useEffect, useMemo } from 'react';
import { type QueryClient, keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Bbox, roundBounds, type Mood, MOODS, TIMING } from '@moodmap/core';
import { ApiError, api } from '../../lib/api.ts';
import { setRealtimeView, useRealtimeStore } from '../../lib/realtime.ts';
import { malformedAnswer } from '../../lib/schemas.ts';
import type { MarkerDto } from './post-types.ts';
import { type ClusterAnswer, readChangesAnswer, readViewportAnswer } from './viewport-answer.ts';
import {
  EXTRA_POSTS_KEY,
  POSTS_KEY,
  REFRESH_POSTS_EVENT,
  VIEWPORT_PREFIX,
  addPostToCache,
  bridgePostsRealtime,
  recentSince,
  removePostFromCache,
  sequenceNow,
} from './posts-query.ts';

export type { Bbox };

/** A server grid cluster (core's clusterSchema); clusters built in the browser may miss moods. */
export type ServerCluster = ClusterAnswer;

export interface ViewportFeed {
  points: MarkerDto[];
  clusters: ServerCluster[];
  cursor: string | null;
  serverTime: string;
  bbox: Bbox;
  zoom: number;
}

export { roundBounds };

export function viewportKey(bbox: Bbox, zoom: number, moods: readonly Mood[]) {
  return [...VIEWPORT_PREFIX, bbox, Math.floor(zoom), [...moods].sort().join(',')] as const;
}

export function inBbox(post: MarkerDto, [west, south, east, north]: Bbox): boolean {
  return post.latitude >= south && post.latitude <= north && post.longitude >= west && post.longitude <= east;
}

let lastCursor: string | null = null;
/** The bounds of the last viewport read: the changes poll asks for the same place. */
let lastBbox: Bbox | null = null;

export async function fetchViewport(
  bbox: Bbox,
  zoom: number,
  moods: readonly Mood[],
  signal?: AbortSignal,
): Promise<ViewportFeed> {
  const since = sequenceNow();
  const [west, south, east, north] = bbox;
  const params = new URLSearchParams({
    west: String(west),
    south: String(south),
    east: String(east),
    north: String(north),
    zoom: String(Math.floor(zoom)),
  });
  if (moods.length > 0 && moods.length < MOODS.length) params.set('moods', [...moods].sort().join(','));
  // Read without zod: the map waits for this answer (viewport-answer.ts).
  const answer = readViewportAnswer(await api<unknown>(`/api/posts/viewport?${params}`, { signal }));
  if (!answer) throw await malformedAnswer();
  let points = answer.points;
  // Changes pushed while the answer was on its way are replayed over it.
  for (const change of recentSince(since)) {
    points = points.filter((p) => p.id !== (change.kind === 'created' ? change.post.id : change.id));
    if (change.kind === 'created' && inBbox(change.post, bbox)) points = [change.post, ...points];
  }
  const { cursor, clusters, serverTime } = answer;
  lastCursor = cursor;
  lastBbox = bbox;
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
    const params = new URLSearchParams({ since: lastCursor });
    if (lastBbox) {
      const [west, south, east, north] = lastBbox;
      for (const [name, value] of Object.entries({ west, south, east, north })) params.set(name, String(value));
    }
    const changes = readChangesAnswer(await api<unknown>(`/api/posts/changes?${params}`));
    if (!changes) throw await malformedAnswer();
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
  lastBbox = null;
}

/**
 * The viewport query of a view as the map asks for it: bounds rounded to the zoom's grid, whole
 * zoom. One place, so the boot-time request (features/map/first-viewport.ts) lands under the very
 * key the map reads.
 */
export function viewportQuery(bbox: Bbox, zoom: number, moods: readonly Mood[]) {
  const rounded = roundBounds(bbox, zoom);
  const wholeZoom = Math.floor(zoom);
  return {
    queryKey: viewportKey(rounded, wholeZoom, moods),
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchViewport(rounded, wholeZoom, moods, signal),
    staleTime: 45_000,
  };
}

/** The map's posts and server clusters for a (debounced) view. */
export function useViewportFeed(view: { bbox: Bbox; zoom: number } | null, moods: readonly Mood[]) {
  const client = useQueryClient();
  const connected = useRealtimeStore((s) => s.connected);
  useEffect(() => bridgePostsRealtime(client), [client]);
  const bbox = view ? roundBounds(view.bbox, view.zoom) : null;
  const query = useQuery({
    ...viewportQuery(view?.bbox ?? [0, 0, 0, 0], view?.zoom ?? 0, moods),
    enabled: view !== null,
    placeholderData: keepPreviousData,
    // The cache must hold the very object addPostToCache/removePostFromCache derived (their
    // `derived` map is keyed by it), so the map applies a realtime post as a diff: structural
    // sharing would store a copy, the map would not recognise it and rebuild every marker.
    structuralSharing: false,
  });
  // Markers put in the cache from elsewhere (a search result to focus) are drawn wherever they are.
  const extra = useQuery<{ posts: MarkerDto[] }>({
    queryKey: EXTRA_POSTS_KEY,
    queryFn: () => ({ posts: [] }),
    enabled: false,
  });

  // The socket hears the bounds the markers were fetched for (debounced in the client).
  const boundsKey = bbox ? bbox.join(',') : '';
  useEffect(() => {
    if (!boundsKey) return;
    const [west, south, east, north] = boundsKey.split(',').map(Number) as Bbox;
    setRealtimeView({ west, south, east, north });
  }, [boundsKey]);

  // Fallback poll of the changes while the socket is down.
  useEffect(() => {
    if (connected) return;
    const timer = setInterval(() => void pollChanges(client), TIMING.postsRefreshMs);
    return () => clearInterval(timer);
  }, [client, connected]);

  useEffect(() => {
    const onRefresh = () =>
      void client.refetchQueries({ queryKey: POSTS_KEY, type: 'active' }, { cancelRefetch: false });
    window.addEventListener(REFRESH_POSTS_EVENT, onRefresh);
    return () => window.removeEventListener(REFRESH_POSTS_EVENT, onRefresh);
  }, [client]);

  const data = query.data;
  const offset = useMemo(() => {
    const server = data ? Date.parse(data.serverTime) : NaN;
    return Number.isFinite(server) ? server - (query.dataUpdatedAt || Date.now()) : 0;
  }, [data, query.dataUpdatedAt]);
  const clusters = useMemo(() => (data && data.zoom < 9 ? data.clusters : []), [data]);

  // The answer itself (not a copy of its markers): the map follows its changes incrementally.
  return {
    answer: data,
    extra: extra.data?.posts,
    clusters,
    offsetMs: offset,
    isError: query.isError,
    isPending: query.isPending,
    error: query.error,
  };
}
