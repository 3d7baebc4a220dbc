/**
 * Cards read when a popup opens: the map holds markers only, so a post's card comes
 * from `GET /api/posts/:id`, and a 100 m group's list from `GET /api/posts/cards?ids=` (which
 * also fills each card's own cache entry). Both stay cached (CARD_STALE_MS); likes and comments
 * update them in place through posts-cache.ts.
 */
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchCards, fetchPost } from './posts-api.ts';
import { CARD_STALE_MS, cardKey } from './posts-query.ts';
import type { PostDto } from './post-types.ts';

/** A post's card (null: the post is gone). */
export const postCardQuery = (id: string) =>
  queryOptions<PostDto | null>({
    queryKey: cardKey(id),
    queryFn: ({ signal }) => fetchPost(id, signal),
    staleTime: CARD_STALE_MS,
    retry: false,
  });

export function usePostCard(id: string) {
  return useQuery(postCardQuery(id));
}

/**
 * Starts reading a card when its popup is asked for (a tap, Enter on a marker), not once the
 * popup has painted: the request then travels while the popup paints, and its answer is in the
 * cache when the popup asks, instead of waiting behind the map's redraws that follow the popup's
 * first frame. A card already cached and
 * fresh is not read again.
 */
export function prefetchPostCard(client: QueryClient, id: string): void {
  void client.prefetchQuery(postCardQuery(id));
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
