/**
 * The comments of a post in the TanStack Query cache under ['comments', postId] (kept
 * 2 min), changed in place by our own writes and by the live feed.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { CommentDto } from '@moodmap/core';

export const COMMENTS_PREFIX = ['comments'] as const;
export const commentsKey = (postId: string) => [...COMMENTS_PREFIX, postId] as const;

/** Ids of comments shown before the server answered (optimistic adds). */
export const TEMP_PREFIX = 'temp-';
export const isTempComment = (comment: Pick<CommentDto, 'id'>) => comment.id.startsWith(TEMP_PREFIX);

function byTime(a: CommentDto, b: CommentDto): number {
  return a.createdAt.localeCompare(b.createdAt) || (isTempComment(a) ? 1 : 0) - (isTempComment(b) ? 1 : 0);
}

/**
 * Adds or replaces a comment. A server comment also replaces my optimistic copy of it (same
 * author and text), whichever of the answer and the live event comes first.
 */
export function withComment(list: CommentDto[], comment: CommentDto, replacing?: string): CommentDto[] {
  let index = list.findIndex((c) => c.id === comment.id);
  if (index < 0 && replacing) index = list.findIndex((c) => c.id === replacing);
  if (index < 0 && !isTempComment(comment)) {
    index = list.findIndex(
      (c) => isTempComment(c) && c.userId === comment.userId && c.content.trim() === comment.content.trim(),
    );
  }
  const next = index < 0 ? [...list, comment] : list.map((c, i) => (i === index ? comment : c));
  // One copy per id: the answer may land after the live event already placed the comment.
  const seen = new Set<string>();
  return next.filter((c) => (seen.has(c.id) ? false : (seen.add(c.id), true))).sort(byTime);
}

export function withoutComment(list: CommentDto[], id: string): CommentDto[] {
  return list.some((c) => c.id === id) ? list.filter((c) => c.id !== id) : list;
}

/** Changes the cached list of a post, if it is loaded (an unloaded list is fetched when opened). */
export function updateComments(
  client: QueryClient,
  postId: string,
  update: (list: CommentDto[]) => CommentDto[],
): void {
  client.setQueryData<CommentDto[]>(commentsKey(postId), (list) => (list ? update(list) : list));
}

/** Applies `update` to every cached comment of every post (it returns the comment itself when unchanged). */
export function updateAllCachedComments(client: QueryClient, update: (comment: CommentDto) => CommentDto): void {
  client.setQueriesData<CommentDto[]>({ queryKey: COMMENTS_PREFIX }, (list) => {
    if (!Array.isArray(list)) return list;
    const next = list.map(update);
    return next.every((c, i) => c === list[i]) ? list : next;
  });
}
