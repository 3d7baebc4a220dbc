/** The place search (server/src/modules/geo): towns and cities by name, accents and case ignored. */
import { PLACE_SEARCH_DEFAULT_RESULTS, type PlaceDto } from '@moodmap/core';
import { api } from '../../lib/api.ts';
import { parseAnswerLazy } from '../../lib/schemas.ts';

export interface PlaceAnswer {
  query: string;
  places: PlaceDto[];
}

export async function searchPlaces(query: string, signal?: AbortSignal): Promise<PlaceAnswer> {
  const params = new URLSearchParams({ q: query, limit: String(PLACE_SEARCH_DEFAULT_RESULTS) });
  // Public data: no session needed, so a signed-out visitor finds places too.
  const answer = await api<unknown>(`/api/geo/places?${params.toString()}`, { signal, auth: false });
  const { places } = await parseAnswerLazy((s) => s.placeSearchResponseSchema, answer);
  return { query, places };
}
