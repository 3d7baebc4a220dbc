import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MESSAGES } from '@moodmap/core';
import { ApiError } from '../../lib/api.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { deletePost } from './posts-api.ts';
import { MY_ACTIVE_POST_KEY, POSTS_KEY, removePostFromCache } from './posts-query.ts';

/** After a delete, the posts are refetched 0.5 s later. */
export const DELETE_REFETCH_MS = 500;

/** Deletes one's own post: gone from the map at once, slot freed, then a refetch to confirm. */
export function useDeletePost() {
  const client = useQueryClient();
  const gone = (id: string) => {
    removePostFromCache(client, id);
    client.setQueryData(MY_ACTIVE_POST_KEY, null);
  };
  const mutation = useMutation({
    mutationFn: (id: string) =>
      deletePost(id).then(
        () => 'deleted' as const,
        (error: unknown) => {
          // Already gone (expired, or deleted from another tab): the map catches up.
          if (error instanceof ApiError && error.status === 404) return 'gone' as const;
          throw error;
        },
      ),
    onSuccess: (outcome, id) => {
      gone(id);
      if (outcome === 'gone') return;
      toast.success(MESSAGES.post_deleted);
      setTimeout(() => void client.invalidateQueries({ queryKey: POSTS_KEY }), DELETE_REFETCH_MS);
    },
    onError: (error) =>
      toast.error(error instanceof ApiError && error.status !== 0 ? error.message : MESSAGES.post_delete_failed),
  });
  const remove = (id: string): Promise<boolean> => {
    if (mutation.isPending) return Promise.resolve(false);
    return mutation.mutateAsync(id).then(
      () => true,
      () => false,
    );
  };
  return { remove, deleting: mutation.isPending };
}
