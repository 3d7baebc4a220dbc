import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES } from '@moodmap/core';
import { ApiError } from '../../lib/api.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { deletePost } from './posts-api.ts';
import { MY_ACTIVE_POST_KEY, POSTS_KEY, removePostFromCache } from './posts-query.ts';

/** Refetch delay after a delete (spec §4 "Posts": "After a delete, a refetch happens after 0.5 s"). */
export const DELETE_REFETCH_MS = 500;

/** Deletes one's own post: gone from the map at once, slot freed, then a refetch to confirm. */
export function useDeletePost() {
  const client = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  const remove = async (id: string): Promise<boolean> => {
    if (deleting) return false;
    setDeleting(true);
    try {
      await deletePost(id);
      removePostFromCache(client, id);
      client.setQueryData(MY_ACTIVE_POST_KEY, null);
      toast.success(MESSAGES.post_deleted);
      setTimeout(() => void client.invalidateQueries({ queryKey: POSTS_KEY }), DELETE_REFETCH_MS);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        // Already gone (expired, or deleted from another tab): the map catches up.
        removePostFromCache(client, id);
        client.setQueryData(MY_ACTIVE_POST_KEY, null);
        return true;
      }
      toast.error(error instanceof ApiError && error.status !== 0 ? error.message : MESSAGES.post_delete_failed);
      return false;
    } finally {
      setDeleting(false);
    }
  };
  return { remove, deleting };
}
