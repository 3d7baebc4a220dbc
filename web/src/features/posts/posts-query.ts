/**
 * Posts in the TanStack Query cache under ['posts', …] (docs/architecture.md, "The map's feed"):
 * - the map's viewport answers (viewport-query.ts), whose `points` are markers (MarkerDto), and
 *   the markers pinned beside them (a search result to focus);
 * - the cards (PostDto) read on open, one per post under ['posts', 'card', id], which likes,
 *   comments and profile changes update in place.
 * The realtime socket keeps the markers current: 'post.created' adds, 'post.deleted' removes;
 * after a reconnect they are refetched (catch-up). The map applies each marker change as it
 * happens (onMarkerChange) instead of diffing 10^5 markers per new post.
 */
import type { QueryClient } from '@tanstack/react-query';
import { MINUTE } from '@moodmap/core';
import { onRealtimeConnection, subscribeRealtime } from '../../lib/realtime.ts';
import { inOrder } from '../../lib/schemas.ts';
import { type MarkerDto, type PostDto, readMarker, toMarker } from './post-types.ts';

export const POSTS_KEY = ['posts'] as const;
export const MY_ACTIVE_POST_KEY = ['posts', 'mine', 'active'] as const;
export const REFRESH_POSTS_EVENT = 'refreshPosts';
/** The map's viewport answers (viewport-query.ts), one per rounded view, zoom and moods. */
export const VIEWPORT_PREFIX = ['posts', 'viewport'] as const;
/** Markers shown on the map wherever they are (a search result to focus), beside the viewport. */
export const EXTRA_POSTS_KEY = ['posts', 'extra'] as const;
const EXTRA_MAX = 20;
/** One post's card (`GET /api/posts/:id`), read when its popup opens. */
export const cardKey = (id: string) => ['posts', 'card', id] as const;
/** A card read once is shown again without a request for this long; realtime keeps its counts. */
export const CARD_STALE_MS = MINUTE;

export type MarkerChange = { kind: 'created'; post: MarkerDto } | { kind: 'deleted'; id: string };
type Change = MarkerChange & { at: number };

/**
 * Changes pushed while a fetch is in flight would be lost when its (older) answer lands, so the
 * last few are kept and replayed over every answer that started before them.
 */
const recent: Change[] = [];
const RECENT_MAX = 200;
let sequence = 0;

function remember(change: MarkerChange): void {
  recent.push({ ...change, at: ++sequence });
  if (recent.length > RECENT_MAX) recent.splice(0, recent.length - RECENT_MAX);
}

export function sequenceNow(): number {
  return sequence;
}

/** The changes remembered after `since` (see `recent`). */
export function recentSince(since: number): MarkerChange[] {
  return recent.filter((change) => change.at > since);
}

type MarkerListener = (change: MarkerChange) => void;
const markerListeners = new Set<MarkerListener>();

/** Every marker added to or removed from the caches, as it happens (the map's incremental path). */
export function onMarkerChange(listener: MarkerListener): () => void {
  markerListeners.add(listener);
  return () => {
    markerListeners.delete(listener);
  };
}

/**
 * Viewport answers produced by a marker change from an earlier answer: new answer → the one it
 * was made from. The map, which already applied that change, follows the new answer without
 * comparing its markers one by one.
 */
const derived = new WeakMap<object, object>();

/** The answer `data` was derived from by marker changes only, or undefined for a fetched answer. */
export function derivedFrom(data: object): object | undefined {
  return derived.get(data);
}

interface ViewportLike {
  points: MarkerDto[];
  bbox?: [number, number, number, number];
}

function inView(post: MarkerDto, bbox: ViewportLike['bbox']): boolean {
  if (!bbox) return true;
  const [west, south, east, north] = bbox;
  return post.latitude >= south && post.latitude <= north && post.longitude >= west && post.longitude <= east;
}

function emit(change: MarkerChange): void {
  for (const listener of [...markerListeners]) listener(change);
}

/**
 * A viewport answer derived from `base` by one marker change. Its `points` are worked out when
 * first read, for all the changes since the last concrete list at once: a live post on a map
 * holding 10^5 markers costs O(1) here instead of a copy of the list,
 * and the map, which follows derived answers change by change (derivedFrom), never reads them.
 */
interface Pending {
  base: ViewportLike;
  change: MarkerChange;
}
const pending = new WeakMap<object, Pending>();
/** The markers of a concrete points list by id, built once per list (removals, lookups). */
const byIdOf = new WeakMap<readonly MarkerDto[], Map<string, MarkerDto>>();

function byId(points: readonly MarkerDto[]): Map<string, MarkerDto> {
  let index = byIdOf.get(points);
  if (!index) {
    index = new Map();
    // The first of a duplicated id, as Array.find would answer.
    for (let i = points.length - 1; i >= 0; i--) index.set(points[i]!.id, points[i]!);
    byIdOf.set(points, index);
  }
  return index;
}

/** The changes between `answer` and its nearest ancestor with a concrete list (oldest first), and that list. */
function unapplied(answer: ViewportLike): { points: MarkerDto[]; changes: MarkerChange[] } {
  const changes: MarkerChange[] = [];
  let at: ViewportLike = answer;
  for (let link = pending.get(at); link; link = pending.get(at)) {
    changes.push(link.change);
    at = link.base;
  }
  return { points: at.points, changes: changes.reverse() };
}

/** `points` with `changes` applied in order: the same list as applying them one by one, in one pass. */
function applyChanges(points: readonly MarkerDto[], changes: readonly MarkerChange[]): MarkerDto[] {
  const touched = new Set<string>();
  const created: MarkerDto[] = [];
  // Newest first: a post's latest creation wins its place at the front, a later deletion drops it.
  for (let i = changes.length - 1; i >= 0; i--) {
    const change = changes[i]!;
    const id = change.kind === 'created' ? change.post.id : change.id;
    if (touched.has(id)) continue;
    touched.add(id);
    if (change.kind === 'created') created.push(change.post);
  }
  return [...created, ...points.filter((p) => !touched.has(p.id))];
}

/** Marker `id` in a viewport answer, without working out a derived answer's points. */
function markerIn(answer: ViewportLike, id: string): MarkerDto | undefined {
  let at: ViewportLike = answer;
  for (let link = pending.get(at); link; link = pending.get(at)) {
    const change = link.change;
    if (change.kind === 'created' ? change.post.id === id : change.id === id)
      return change.kind === 'created' ? change.post : undefined;
    at = link.base;
  }
  return Array.isArray(at.points) ? byId(at.points).get(id) : undefined;
}

function derive<T extends ViewportLike>(base: T, change: MarkerChange): T {
  // Field by field: a spread would read a derived base's `points` and work them out.
  const next = {} as T;
  for (const key of Object.keys(base) as Array<keyof T>) if (key !== 'points') next[key] = base[key];
  let points: MarkerDto[] | undefined;
  // Enumerable like the field it stands for (spreads, JSON, structural sharing read it).
  Object.defineProperty(next, 'points', {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!points) {
        const { points: from, changes } = unapplied(next);
        points = applyChanges(from, changes);
        pending.delete(next);
      }
      return points;
    },
  });
  pending.set(next, { base, change });
  derived.set(next, base);
  return next;
}

/**
 * Writes a derived answer into every viewport query that takes it. The answer's time stays the
 * fetch's: the map's clock offset is the server's time minus it, and a live post must not make a
 * 45 s old answer look fresh (nor shift 'il y a 5 minutes' by those 45 s).
 */
function deriveViewports(client: QueryClient, change: MarkerChange, takes: (data: ViewportLike) => boolean): void {
  for (const query of client.getQueryCache().findAll({ queryKey: VIEWPORT_PREFIX })) {
    const data = query.state.data as ViewportLike | undefined;
    if (!data || typeof data !== 'object' || !(pending.has(data) || Array.isArray(data.points)) || !takes(data))
      continue;
    client.setQueryData(query.queryKey, derive(data, change), { updatedAt: query.state.dataUpdatedAt });
  }
}

/** Adds a post's marker to the map's caches (realtime event, changes poll, our own create); a card is kept as the card. */
export function addPostToCache(client: QueryClient, post: MarkerDto | PostDto): void {
  const marker = toMarker(post);
  if ('author' in post) client.setQueryData(cardKey(post.id), post);
  const change: MarkerChange = { kind: 'created', post: marker };
  remember(change);
  deriveViewports(client, change, (data) => inView(marker, data.bbox));
  client.setQueryData<{ posts: MarkerDto[] }>(EXTRA_POSTS_KEY, (extra) =>
    extra?.posts.some((p) => p.id === marker.id)
      ? { posts: extra.posts.map((p) => (p.id === marker.id ? marker : p)) }
      : extra,
  );
  emit(change);
}

/** Keeps a post drawn on the map wherever it is (the search's focus), beside the viewport. */
export function pinPostInCache(client: QueryClient, post: MarkerDto | PostDto): void {
  const marker = toMarker(post);
  if ('author' in post) client.setQueryData(cardKey(post.id), post);
  client.setQueryData<{ posts: MarkerDto[] }>(EXTRA_POSTS_KEY, (extra) => ({
    posts: [marker, ...(extra?.posts ?? []).filter((p) => p.id !== marker.id)].slice(0, EXTRA_MAX),
  }));
}

export function removePostFromCache(client: QueryClient, id: string): void {
  const change: MarkerChange = { kind: 'deleted', id };
  remember(change);
  // A list of cards kept under ['posts'] (the whole feed some screens read) loses it too.
  client.setQueryData<{ posts: PostDto[] }>(POSTS_KEY, (feed) =>
    feed && Array.isArray(feed.posts) && feed.posts.some((p) => p.id === id)
      ? { ...feed, posts: feed.posts.filter((p) => p.id !== id) }
      : feed,
  );
  deriveViewports(client, change, (data) => markerIn(data, id) !== undefined);
  client.setQueryData<{ posts: MarkerDto[] }>(EXTRA_POSTS_KEY, (extra) =>
    extra?.posts.some((p) => p.id === id) ? { posts: extra.posts.filter((p) => p.id !== id) } : extra,
  );
  client.removeQueries({ queryKey: cardKey(id), exact: true });
  emit(change);
}

/** A marker the map's caches hold (viewport answers, pinned markers). */
export function findCachedMarker(client: QueryClient, id: string): MarkerDto | undefined {
  for (const [, data] of client.getQueriesData<ViewportLike | { posts: MarkerDto[] }>({ queryKey: POSTS_KEY })) {
    // A viewport answer by its index (a derived one without working out its points).
    if (data && 'points' in data) {
      const found = markerIn(data, id);
      if (found) return found;
      continue;
    }
    const list = data && 'posts' in data ? data.posts : undefined;
    const found = Array.isArray(list) ? list.find((p) => p && p.id === id) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** Rewrites the markers of one author (a new photo reaches the map without a refetch). */
export function updateMarkersOf(client: QueryClient, userId: string, photoUrl: string | null): void {
  const rewrite = (list: MarkerDto[]) =>
    list.some((p) => p.userId === userId && p.photoUrl !== photoUrl)
      ? list.map((p) => (p.userId === userId ? { ...p, photoUrl } : p))
      : list;
  client.setQueriesData<ViewportLike>({ queryKey: VIEWPORT_PREFIX }, (data) => {
    if (!data || !Array.isArray(data.points)) return data;
    const points = rewrite(data.points);
    return points === data.points ? data : { ...data, points };
  });
  client.setQueryData<{ posts: MarkerDto[] }>(EXTRA_POSTS_KEY, (extra) => {
    if (!extra) return extra;
    const posts = rewrite(extra.posts);
    return posts === extra.posts ? extra : { posts };
  });
}

let bridged: QueryClient | null = null;
let unbridge: (() => void) | null = null;

/** Applies the socket's post events to `client`'s cache (once per client). */
export function bridgePostsRealtime(client: QueryClient): void {
  if (bridged === client) return;
  unbridge?.();
  bridged = client;
  // Markers are read with core's schema, loaded on first use: events apply a tick later, in order.
  const then = inOrder();
  const stops = [
    subscribeRealtime('post.created', (event) =>
      then(async () => {
        const post = await readMarker((event.data as { post?: unknown } | undefined)?.post);
        if (post && bridged === client) addPostToCache(client, post);
      }),
    ),
    subscribeRealtime('post.deleted', (event) =>
      then(() => {
        const id = (event.data as { id?: unknown } | undefined)?.id;
        if (typeof id !== 'string' || bridged !== client) return;
        removePostFromCache(client, id);
        void client.invalidateQueries({ queryKey: MY_ACTIVE_POST_KEY });
      }),
    ),
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
  markerListeners.clear();
}
