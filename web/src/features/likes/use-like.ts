/**
 * Liking a post (docs/product.md, Likes and comments): toggled optimistically on every cached copy
 * of the post; a failure reverts it and refetches the post; after a like, the post is read again
 * after 1 s. The request says the state the person chose (PUT to like, DELETE to unlike), so a
 * retried one cannot undo it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type LikeState, MESSAGES } from '@moodmap/core';
import { useSessionStore } from '../auth/session-store.ts';
import { useUiStore } from '../../lib/ui-store.ts';
import { ApiError, api } from '../../lib/api.ts';
import { parseAnswerLazy } from '../../lib/schemas.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { refreshPost, updateCachedPost } from '../posts/posts-cache.ts';
import type { PostDto } from '../posts/post-types.ts';

/** After a like, the post is refetched 1 s later. */
export const LIKE_REFETCH_MS = 1_000;

/** Sets (`liked`) or removes the caller's like; the post's count and the caller's state after it. */
export async function setPostLike(postId: string, liked: boolean): Promise<LikeState> {
  const answer = await api<unknown>(`/api/posts/${encodeURIComponent(postId)}/like`, {
    method: liked ? 'PUT' : 'DELETE',
  });
  return parseAnswerLazy((s) => s.likeStateSchema, answer, 'like_failed');
}

function failureText(error: unknown): string {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401
    ? error.message
    : MESSAGES.like_failed;
}

export function useLike(post: Pick<PostDto, 'id' | 'isLikedByUser'>) {
  const client = useQueryClient();
  const signedIn = useSessionStore((s) => s.user !== null);
  const openAuth = useUiStore((s) => s.openAuth);

  const mutation = useMutation({
    mutationFn: ({ id, liked }: { id: string; liked: boolean }) => setPostLike(id, liked),
    // Every cached copy of the post changes at once; the answer or a failure settles it.
    onMutate: ({ id, liked }) => {
      updateCachedPost(client, id, (p) => ({
        ...p,
        isLikedByUser: liked,
        likesCount: Math.max(0, p.likesCount + (liked ? 1 : -1)),
      }));
    },
    onSuccess: (result, { id }) => {
      updateCachedPost(client, id, (p) => ({
        ...p,
        likesCount: result.likesCount,
        isLikedByUser: result.isLikedByUser,
      }));
      setTimeout(() => void refreshPost(client, id).catch(() => undefined), LIKE_REFETCH_MS);
    },
    onError: (error, { id, liked }) => {
      updateCachedPost(client, id, (p) => ({
        ...p,
        isLikedByUser: !liked,
        likesCount: Math.max(0, p.likesCount + (liked ? -1 : 1)),
      }));
      toast.error(failureText(error));
      // The server's word settles it (and a post that is gone leaves the map).
      void refreshPost(client, id).catch(() => undefined);
    },
  });

  const toggle = () => {
    if (!signedIn) {
      toast.info(MESSAGES.like_signed_out);
      openAuth('login');
      return;
    }
    if (mutation.isPending) return;
    mutation.mutate({ id: post.id, liked: !post.isLikedByUser });
  };

  return { toggle, pending: mutation.isPending };
}
