/**
 * Showing one post on the map from elsewhere (a search result, a profile): the post is put in
 * the map's cache first, read from the server when no cache holds it, then the map is asked
 * through navigation state to centre on it at zoom 16 and open it.
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { SHELL_MESSAGES } from '@moodmap/core';
import { ApiError } from '../../lib/api.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import type { FocusPostState } from './CreateScreen.tsx';
import { fetchPost } from './posts-api.ts';
import { putPostInCache } from './posts-cache.ts';
import { findCachedMarker, pinPostInCache, removePostFromCache } from './posts-query.ts';
import type { PostDto } from './post-types.ts';

/** Resolves false when the post is gone (it is then said with 'Publication introuvable'). */
export function useFocusPost() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (id: string, known?: PostDto): Promise<boolean> => {
      if (!findCachedMarker(client, id)) {
        try {
          const fresh = await fetchPost(id);
          if (!fresh) throw new ApiError(404, 'post_not_found', SHELL_MESSAGES.post_not_found);
          putPostInCache(client, fresh);
        } catch (error) {
          const gone = error instanceof ApiError && error.status === 404;
          if (gone || !known) {
            if (gone) removePostFromCache(client, id);
            toast.error(gone ? SHELL_MESSAGES.post_not_found : SHELL_MESSAGES.internal_error);
            return false;
          }
          // The server could not be reached: what the search answered will do.
          putPostInCache(client, known);
        }
      }
      // The map draws it wherever its viewport answer stands.
      const cached = findCachedMarker(client, id);
      if (cached) pinPostInCache(client, cached);
      void navigate('/', { state: { focusPostId: id } satisfies FocusPostState });
      return true;
    },
    [client, navigate],
  );
}
