/**
 * The search as the top bar runs it: 500 ms after the last keystroke, for 2
 * to 100 characters, among the selected moods; answers kept 5 minutes under
 * ['search', q, moods].
 */
import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { CACHE_TTL_MS, SEARCH_DEBOUNCE_MS } from '@moodmap/core';
import { useMoodFilterStore } from '../moods/mood-filter-store.ts';
import { moodsParam, searchPosts } from './search-api.ts';
import { isSearchable } from './search-store.ts';

export function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return current;
}

export const searchKey = (query: string, moods: string) => ['search', query, moods] as const;

/**
 * A query asked 500 ms after the last keystroke, once it holds 2 to 100 characters; the previous
 * answer stays on screen while the next one comes. Shared by the post and the place searches.
 */
export function useDebouncedSearch<T>(
  rawQuery: string,
  keyOf: (query: string) => QueryKey,
  fetch: (query: string, signal: AbortSignal) => Promise<T>,
  staleTime: number,
) {
  const typed = rawQuery.trim();
  const debounced = useDebounced(typed, SEARCH_DEBOUNCE_MS);
  const active = isSearchable(typed);
  const enabled = active && isSearchable(debounced);
  const query = useQuery({
    queryKey: keyOf(debounced),
    queryFn: ({ signal }) => fetch(debounced, signal),
    staleTime,
    enabled,
    retry: false,
    placeholderData: keepPreviousData,
  });
  // Typing, or an answer on its way: the list shown may be the previous query's.
  const waiting = active && (typed !== debounced || query.isFetching || !enabled);
  return {
    /** Whether the box holds something searchable (the dropdown shows). */
    active,
    answer: active ? query.data : undefined,
    waiting,
    error: active && query.isError && !query.isFetching && typed === debounced ? query.error : null,
  };
}

export function useSearch(rawQuery: string) {
  const selected = useMoodFilterStore((s) => s.selected);
  const moods = moodsParam(selected);
  return useDebouncedSearch(
    rawQuery,
    (query) => searchKey(query, moods),
    (query, signal) => searchPosts(query, selected, signal),
    CACHE_TTL_MS.search,
  );
}
