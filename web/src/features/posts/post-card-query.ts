/**
 * Cards read when a popup opens (issue 15): the map holds markers only, so a post's card comes
 * from `GET /api/posts/:id`, and a 100 m group's list from `GET /api/posts/cards?ids=` (which
 * also fills each card's own cache entry). Both stay cached (CARD_STALE_MS); likes and comments
 * update them in place through posts-cache.ts.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchCards, fetchPost } from './posts-api.ts';
import { CARD_STALE_MS, cardKey } from './posts-query.ts';
import type { PostDto } from './post-types.ts';

export function usePostCard(id: string) {
  return useQuery<PostDto | null>({
    queryKey: cardKey(id),
    queryFn: ({ signal }) => fetchPost(id, signal),
    staleTime: CARD_STALE_MS,
    retry: false,
  });
}

export function useGroupCards(ids: readonly string[]) {
  const client = useQueryClient();
  const key = [...ids].sort().join(',');
  return useQuery<PostDto[]>({
    queryKey: ['posts', 'cards', key],
    queryFn: async ({ signal }) => {
      const cards = await fetchCards(key.split(','), signal);
      for (const card of cards) client.setQueryData(cardKey(card.id), card);
      return cards;
    },
    enabled: ids.length > 0,
    staleTime: CARD_STALE_MS,
    retry: false,
  });
}
