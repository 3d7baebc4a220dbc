/**
 * Comments of a post (docs/product.md, Likes and comments): added, edited (flagged is_edited) or
 * deleted with an optimistic update; a failure rolls back and refetches. The post's comment count
 * follows.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CACHE_TTL_MS, type CommentDto, MESSAGES } from '@moodmap/core';
import { type SessionUser, useSessionStore } from '../auth/session-store.ts';
import { ApiError } from '../../lib/api.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { refreshPost, updateCachedPost } from '../posts/posts-cache.ts';
import { fetchComments, patchComment, postComment, removeComment } from './comments-api.ts';
import { TEMP_PREFIX, commentsKey, updateComments, withComment, withoutComment } from './comments-cache.ts';

export function useCommentsQuery(postId: string, enabled: boolean) {
  return useQuery({
    queryKey: commentsKey(postId),
    queryFn: ({ signal }) => fetchComments(postId, signal),
    staleTime: CACHE_TTL_MS.comments,
    enabled,
  });
}

/** The server's text for what the person can act on (validation, limits, gone), else ours. */
function failureText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401)
    return error.message;
  return fallback;
}

let tempCounter = 0;

/** The comment shown while the server has not answered: a temporary id, the author as signed in. */
function tempComment(postId: string, user: SessionUser, content: string): CommentDto {
  const now = new Date().toISOString();
  return {
    id: `${TEMP_PREFIX}${++tempCounter}`,
    postId,
    userId: user.id,
    content: content.trim(),
    createdAt: now,
    updatedAt: now,
    isEdited: false,
    author: {
      username: user.nickname,
      photoUrl: user.profilePhotoUrl ?? null,
      isPremium: user.isPremium ?? false,
      isPro: user.isPro ?? false,
      isPlus: user.isPlus ?? false,
      isMulti: user.isMulti ?? false,
    },
  };
}

export function useCommentActions(postId: string) {
  const client = useQueryClient();
  const user = useSessionStore((s) => s.user);

  const shiftCount = (delta: number) =>
    updateCachedPost(client, postId, (p) => ({ ...p, commentsCount: Math.max(0, p.commentsCount + delta) }));
  const setCount = (count: number | null) => {
    if (count !== null)
      updateCachedPost(client, postId, (p) => (p.commentsCount === count ? p : { ...p, commentsCount: count }));
  };
  const resync = () => {
    void client.invalidateQueries({ queryKey: commentsKey(postId) });
    void refreshPost(client, postId).catch(() => undefined);
  };

  const addMutation = useMutation({
    mutationFn: ({ content }: { content: string; temp: CommentDto }) => postComment(postId, content),
    onMutate: ({ temp }) => {
      updateComments(client, postId, (list) => withComment(list, temp));
      shiftCount(1);
    },
    onSuccess: ({ comment, commentsCount }, { temp }) => {
      if (comment)
        updateComments(client, postId, (list) => withoutComment(withComment(list, comment, temp.id), temp.id));
      setCount(commentsCount);
    },
    onError: (error, { temp }) => {
      updateComments(client, postId, (list) => withoutComment(list, temp.id));
      shiftCount(-1);
      toast.error(failureText(error, MESSAGES.comment_add_failed));
      resync();
    },
  });

  const editMutation = useMutation({
    mutationFn: ({ comment, content }: { comment: CommentDto; content: string }) => patchComment(comment.id, content),
    onMutate: ({ comment, content }) => {
      const optimistic: CommentDto = {
        ...comment,
        content: content.trim(),
        isEdited: true,
        updatedAt: new Date().toISOString(),
      };
      updateComments(client, postId, (list) => withComment(list, optimistic));
    },
    onSuccess: (saved) => {
      if (saved) updateComments(client, postId, (list) => withComment(list, saved));
    },
    onError: (error, { comment }) => {
      updateComments(client, postId, (list) =>
        list.some((c) => c.id === comment.id) ? withComment(list, comment) : list,
      );
      toast.error(failureText(error, MESSAGES.comment_edit_failed));
      resync();
    },
  });

  const removeMutation = useMutation({
    mutationFn: (comment: CommentDto) =>
      removeComment(comment.id).catch((error: unknown) => {
        // Already gone (deleted elsewhere, or the post expired): nothing to put back.
        if (error instanceof ApiError && error.status === 404) return 'gone' as const;
        throw error;
      }),
    onMutate: (comment) => {
      updateComments(client, postId, (list) => withoutComment(list, comment.id));
      shiftCount(-1);
    },
    onSuccess: (count) => {
      if (count === 'gone') resync();
      else setCount(count);
    },
    onError: (error, comment) => {
      updateComments(client, postId, (list) => withComment(list, comment));
      shiftCount(1);
      toast.error(failureText(error, MESSAGES.comment_delete_failed));
      resync();
    },
  });

  const settled = (pending: Promise<unknown>): Promise<boolean> =>
    pending.then(
      () => true,
      () => false,
    );

  /** Resolves true once the server has the comment (the form then clears). */
  const add = (content: string): Promise<boolean> => {
    if (!user) return Promise.resolve(false);
    const temp = tempComment(postId, user, content);
    return settled(addMutation.mutateAsync({ content, temp }));
  };

  const edit = (comment: CommentDto, content: string): Promise<boolean> =>
    settled(editMutation.mutateAsync({ comment, content }));

  const remove = (comment: CommentDto): Promise<boolean> => settled(removeMutation.mutateAsync(comment));

  return { add, edit, remove };
}
