/**
 * Small helpers over every cached copy of a post, whatever the shape of the caches under
 * ['posts', …]: the feed (`{ posts }`), a viewport answer (`{ points }`), a changes answer
 * (`{ created }`), or one post (my active post). Likes, comments and the search's focus use
 * them, so they keep working when the map's feed changes shape.
 */
import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api.ts';
import { fetchPost } from './posts-api.ts';
import { addPostToCache, pinPostInCache, removePostFromCache } from './posts-query.ts';
import type { PostDto } from './post-types.ts';

const POSTS_PREFIX = ['posts'] as const;
/** Fields of a cached answer that may hold posts. */
const LIST_FIELDS = ['posts', 'points', 'created', 'results'] as const;

type Update = (post: PostDto) => PostDto;

function isPost(value: unknown): value is PostDto {
  if (!value || typeof value !== 'object') return false;
  const p = value as Partial<PostDto>;
  return typeof p.id === 'string' && typeof p.latitude === 'number' && typeof p.longitude === 'number' && typeof p.category === 'string';
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
  client.setQueriesData<unknown>({ queryKey: POSTS_PREFIX }, (data: unknown) => (data === undefined ? data : mapPostsIn(data, update)));
}

/** Updates every cached copy of a post (feed, viewport, my active post). */
export function updateCachedPost(client: QueryClient, id: string, update: Update): void {
  updateAllCachedPosts(client, (post) => (post.id === id ? update(post) : post));
}

/**
 * A cached copy of a post. With `listsOnly`, only lists count (what the map draws), not a
 * single post kept on its own (my active post).
 */
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

/** Puts a post in the caches: its copies are replaced, and it joins the map's feed if no list holds it. */
export function putPostInCache(client: QueryClient, post: PostDto): void {
  updateCachedPost(client, post.id, () => post);
  if (!findCachedPost(client, post.id, { listsOnly: true })) addPostToCache(client, post);
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
