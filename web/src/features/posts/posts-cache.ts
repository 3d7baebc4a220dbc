/**
 * Small helpers over every cached copy of a post's card, whatever the shape of the caches under
 * ['posts', …]: a list (`{ posts }`, `{ results }`…), one card (['posts', 'card', id], my active
 * post). Likes, comments, profile changes and the search's focus use them. Markers (the map's
 * viewport answers) carry no card fields and are left alone: their changes go through
 * posts-query.ts.
 */
import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api.ts';
import { fetchPost } from './posts-api.ts';
import { addPostToCache, cardKey, findCachedMarker, pinPostInCache, removePostFromCache } from './posts-query.ts';
import type { PostDto } from './post-types.ts';

const POSTS_PREFIX = ['posts'] as const;
/** Fields of a cached answer that may hold posts. */
const LIST_FIELDS = ['posts', 'points', 'created', 'results'] as const;

type Update = (post: PostDto) => PostDto;

function isPost(value: unknown): value is PostDto {
  if (!value || typeof value !== 'object') return false;
  const p = value as Partial<PostDto>;
  // A card, not a marker: only cards carry the author and the counts these updates rewrite.
  return (
    typeof p.id === 'string' && typeof p.category === 'string' && typeof p.author === 'object' && p.author !== null
  );
}

function mapList(list: unknown[], update: Update): unknown[] {
  let changed = false;
  const next = list.map((item) => {
    if (!isPost(item)) return item;
    const updated = update(item);
    if (updated !== item) changed = true;
    return updated;
  });
  return changed ? next : list;
}

/** `data` with `update` applied to every post in it; the same object when nothing changed. */
function mapPostsIn(data: unknown, update: Update): unknown {
  if (!data || typeof data !== 'object') return data;
  if (isPost(data)) return update(data);
  if (Array.isArray(data)) return mapList(data, update);
  const record = data as Record<string, unknown>;
  let next: Record<string, unknown> | null = null;
  for (const field of LIST_FIELDS) {
    const list = record[field];
    if (!Array.isArray(list)) continue;
    const updated = mapList(list, update);
    if (updated !== list) (next ??= { ...record })[field] = updated;
  }
  return next ?? data;
}

/** `data` with the post `id` updated wherever it appears; the same object when nothing changed. */
export function updatePostIn(data: unknown, id: string, update: Update): unknown {
  return mapPostsIn(data, (post) => (post.id === id ? update(post) : post));
}

/** Applies `update` to every cached post of every list (it returns the post itself when unchanged). */
export function updateAllCachedPosts(client: QueryClient, update: Update): void {
  client.setQueriesData<unknown>({ queryKey: POSTS_PREFIX }, (data: unknown) =>
    data === undefined ? data : mapPostsIn(data, update),
  );
}

/** Updates every cached copy of a post's card (its card, lists of cards, my active post). */
export function updateCachedPost(client: QueryClient, id: string, update: Update): void {
  updateAllCachedPosts(client, (post) => (post.id === id ? update(post) : post));
}

/** A cached card of a post. With `listsOnly`, only lists count, not a single card kept on its own. */
export function findCachedPost(client: QueryClient, id: string, { listsOnly = false } = {}): PostDto | undefined {
  for (const [, data] of client.getQueriesData<unknown>({ queryKey: POSTS_PREFIX })) {
    if (listsOnly && isPost(data)) continue;
    let found: PostDto | undefined;
    updatePostIn(data, id, (post) => {
      found ??= post;
      return post;
    });
    if (found) return found;
  }
  return undefined;
}

/** Puts a post in the caches: its card copies are replaced, and its marker joins the map if no list holds it. */
export function putPostInCache(client: QueryClient, post: PostDto): void {
  updateCachedPost(client, post.id, () => post);
  client.setQueryData(cardKey(post.id), post);
  if (!findCachedMarker(client, post.id)) addPostToCache(client, post);
  pinPostInCache(client, post);
}

/**
 * Reads one post again (`GET /api/posts/:id`) and puts it in the caches. A post that is gone
 * (deleted, expired) leaves them. Returns the post, or null when it is gone; other failures throw.
 */
export async function refreshPost(client: QueryClient, id: string): Promise<PostDto | null> {
  try {
    const post = await fetchPost(id);
    if (post) updateCachedPost(client, id, () => post);
    return post;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      removePostFromCache(client, id);
      return null;
    }
    throw error;
  }
}
