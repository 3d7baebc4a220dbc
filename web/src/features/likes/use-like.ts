/**
 * Liking a post (docs/product.md, Likes and comments): toggled optimistically on every cached copy
 * of the post; a failure reverts it and refetches the post; after a like, the post is read again
 * after 1 s.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type LikeToggleResult, MESSAGES } from '@moodmap/core';
import { useSessionStore } from '../auth/session-store.ts';
import { useUiStore } from '../../lib/ui-store.ts';
import { ApiError, api } from '../../lib/api.ts';
import { parseAnswerLazy } from '../../lib/schemas.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { refreshPost, updateCachedPost } from '../posts/posts-cache.ts';
import type { PostDto } from '../posts/post-types.ts';

/** After a like, the post is refetched 1 s later. */
export const LIKE_REFETCH_MS = 1_000;

export async function togglePostLike(postId: string): Promise<LikeToggleResult> {
  return parseAnswerLazy((s) => s.likeToggleResultSchema, await api<unknown>(`/api/posts/${encodeURIComponent(postId)}/like`, { method: 'POST' }), 'like_failed');
}

function failureText(error: unknown): string {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401 ? error.message : MESSAGES.like_failed;
}

export function useLike(post: Pick<PostDto, 'id' | 'isLikedByUser'>) {
  const client = useQueryClient();
  const signedIn = useSessionStore((s) => s.user !== null);
  const openAuth = useUiStore((s) => s.openAuth);

  const mutation = useMutation({
    mutationFn: ({ id }: { id: string; liked: boolean }) => togglePostLike(id),
    // Every cached copy of the post changes at once; the answer or a failure settles it.
    onMutate: ({ id, liked }) => {
      updateCachedPost(client, id, (p) => ({ ...p, isLikedByUser: liked, likesCount: Math.max(0, p.likesCount + (liked ? 1 : -1)) }));
    },
    onSuccess: (result, { id }) => {
      updateCachedPost(client, id, (p) => ({ ...p, isLikedByUser: result.liked, likesCount: result.likesCount }));
      setTimeout(() => void refreshPost(client, id).catch(() => undefined), LIKE_REFETCH_MS);
    },
    onError: (error, { id, liked }) => {
      updateCachedPost(client, id, (p) => ({ ...p, isLikedByUser: !liked, likesCount: Math.max(0, p.likesCount + (liked ? -1 : 1)) }));
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
