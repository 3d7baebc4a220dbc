/**
 * Live interactions on posts (docs/architecture.md, "A realtime event"): 'post.liked' { postId,
 * likesCount } and 'post.commented' { postId, commentsCount, comment? | removedCommentId? } reach
 * every viewer and are applied to the caches: counts on every copy of the post (my own
 * isLikedByUser is kept: the event carries nobody's like), comments in the post's loaded list.
 */
import { useEffect } from 'react';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { subscribeRealtime } from '../../lib/realtime.ts';
import { inOrder } from '../../lib/schemas.ts';
import { readComment } from '../comments/comments-api.ts';
import { updateComments, withComment, withoutComment } from '../comments/comments-cache.ts';
import { updateCachedPost } from './posts-cache.ts';

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

export function bridgeInteractionsRealtime(client: QueryClient): () => void {
  // Comments are read with core's schema, loaded on first use: comment events apply a tick later, in order.
  const then = inOrder();
  const stops = [
    subscribeRealtime('post.liked', (event) => {
      const data = (event.data ?? {}) as { postId?: unknown; likesCount?: unknown };
      const likes = count(data.likesCount);
      if (typeof data.postId !== 'string' || likes === null) return;
      updateCachedPost(client, data.postId, (p) => (p.likesCount === likes ? p : { ...p, likesCount: likes }));
    }),
    subscribeRealtime('post.commented', (event) =>
      then(async () => {
        const data = (event.data ?? {}) as {
          postId?: unknown;
          commentsCount?: unknown;
          comment?: unknown;
          removedCommentId?: unknown;
        };
        if (typeof data.postId !== 'string') return;
        const postId = data.postId;
        const comments = count(data.commentsCount);
        if (comments !== null)
          updateCachedPost(client, postId, (p) =>
            p.commentsCount === comments ? p : { ...p, commentsCount: comments },
          );
        const comment = data.comment === undefined ? null : await readComment(data.comment);
        if (comment && comment.postId === postId) updateComments(client, postId, (list) => withComment(list, comment));
        if (typeof data.removedCommentId === 'string') {
          const removed = data.removedCommentId;
          updateComments(client, postId, (list) => withoutComment(list, removed));
        }
      }),
    ),
  ];
  return () => stops.forEach((stop) => stop());
}

/** Mounted with the map: keeps the caches in step while anyone interacts with posts. */
export function useInteractionsRealtime(): void {
  const client = useQueryClient();
  useEffect(() => bridgeInteractionsRealtime(client), [client]);
}
