/** The search API (server/src/modules/search/routes.ts): live posts matching q among the selected moods. */
import { MOODS, type Mood } from '@moodmap/core';
import { api } from '../../lib/api.ts';
import { parseAnswerLazy } from '../../lib/schemas.ts';
import type { PostDto } from '../posts/post-types.ts';
import { track } from '../../lib/analytics.ts';

export interface SearchAnswer {
  query: string;
  results: PostDto[];
}

/** Moods in their canonical order, so one selection is one cache key. */
export function moodsParam(moods: readonly Mood[]): string {
  return MOODS.filter((m) => moods.includes(m)).join(',');
}

export async function searchPosts(query: string, moods: readonly Mood[], signal?: AbortSignal): Promise<SearchAnswer> {
  const params = new URLSearchParams({ q: query, moods: moodsParam(moods) });
  const { results } = await parseAnswerLazy(
    (s) => s.searchResponseSchema,
    await api<unknown>(`/api/search?${params.toString()}`, { signal }),
  );
  track('search');
  return { query, results };
}
