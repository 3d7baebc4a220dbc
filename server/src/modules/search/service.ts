/**
 * Search over live posts: content, nickname (the post's and the author's
 * current username) and mood label, among the selected moods; accent- and case-insensitive on
 * PGlite and PostgreSQL alike; at most 10 results, newest first.
 */
import { foldForSearch, moodsMatchingQuery, type Mood, type PostDto } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { toPostDto } from '../posts/dto.ts';
import { findLiveCards } from './data.ts';

/** A LIKE pattern matching `text` literally anywhere: %, _ and \ in the query are plain characters. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface SearchInput {
  /** Trimmed, 2–100 characters. */
  q: string;
  moods: Mood[];
}

export async function searchPosts(db: Db, input: SearchInput, viewerId: string | null): Promise<PostDto[]> {
  const pattern = containsPattern(foldForSearch(input.q));
  const rows = await findLiveCards(db, pattern, input.moods, moodsMatchingQuery(input.q, input.moods), viewerId);
  return rows.map(toPostDto);
}
