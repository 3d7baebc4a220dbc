/**
 * Place search as you type, for the top bar and the create page's picker: debounced like the
 * post search (500 ms, 2 to 100 characters). Places do not change while the app runs, so an
 * answer stays fresh as long as it is cached.
 */
import { searchPlaces } from './places-api.ts';
import { useDebouncedSearch } from './use-search.ts';

export const placesKey = (query: string) => ['places', query] as const;

export function usePlaceSearch(rawQuery: string) {
  return useDebouncedSearch(rawQuery, placesKey, searchPlaces, Number.POSITIVE_INFINITY);
}
