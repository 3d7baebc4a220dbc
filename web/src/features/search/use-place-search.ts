/**
 * Place search as you type, for the top bar and the create page's picker: debounced like the
 * post search (500 ms, 2 to 100 characters). Places do not change while the app runs, so an
 * answer stays fresh as long as it is cached.
 */
import type { PlaceAnswer } from './places-api.ts';
import { useDebouncedSearch } from './use-search.ts';

// Loaded on the first place query: places-api reads a constant of core's geo schemas, whose
// module builds zod schemas and the whole catalogue when it runs (kept off the first load).
const searchPlaces = (query: string, signal?: AbortSignal): Promise<PlaceAnswer> =>
  import('./places-api.ts').then((m) => m.searchPlaces(query, signal));

export const placesKey = (query: string) => ['places', query] as const;

export function usePlaceSearch(rawQuery: string) {
  return useDebouncedSearch(rawQuery, placesKey, searchPlaces, Number.POSITIVE_INFINITY);
}
