import { create } from 'zustand';
import { SEARCH_MAX, SEARCH_MIN } from '@moodmap/core';

/** A query is searched only when it holds 2 to 100 characters once trimmed (docs/product.md, Limits). */
export function isSearchable(query: string): boolean {
  const length = query.trim().length;
  return length >= SEARCH_MIN && length <= SEARCH_MAX;
}

/** The top bar's search text; the search feature reads it (debounced) when it arrives. */
interface SearchState {
  query: string;
  setQuery: (query: string) => void;
}

export const useSearchStore = create<SearchState>()((set) => ({
  query: '',
  setQuery: (query) => set({ query: query.slice(0, SEARCH_MAX) }),
}));
