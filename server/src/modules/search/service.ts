/**
 * Search over live posts (spec §9 "Search"): content, nickname (the post's and the author's
 * current username) and mood label, among the selected moods; accent- and case-insensitive on
 * PGlite and PostgreSQL alike; at most 10 results, newest first.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  SEARCH_FOLD_FROM, SEARCH_FOLD_LIGATURES, SEARCH_FOLD_TO, SEARCH_MAX_RESULTS, VOICE_ONLY_TEXT,
  foldForSearch, moodsMatchingQuery, type Mood, type PostDto,
} from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { POST_COLUMNS, toPostDto, type PostRow } from '../posts/dto.ts';
import { LIVE, likedBy } from '../posts/service.ts';

/** The SQL twin of core's foldForSearch: lower(), translate() over the same table, ligatures. */
function folded(expression: SQL): SQL {
  let result = sql`translate(lower(${expression}), ${SEARCH_FOLD_FROM}, ${SEARCH_FOLD_TO})`;
  for (const [from, to] of SEARCH_FOLD_LIGATURES) result = sql`replace(${result}, ${from}, ${to})`;
  return result;
}

/** A LIKE pattern matching `text` literally anywhere: %, _ and \ in the query are plain characters. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const ESCAPE = sql.raw(`escape '\\'`);
const inList = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

export interface SearchInput {
  /** Trimmed, 2–100 characters. */
  q: string;
  moods: Mood[];
}

export async function searchPosts(db: Db, input: SearchInput, viewerId: string | null): Promise<PostDto[]> {
  const pattern = containsPattern(foldForSearch(input.q));
  const byLabel = moodsMatchingQuery(input.q, input.moods);
  // The stored 'Message vocal' of a voice-only post is never displayed, so it is not searched.
  const voiceOnly = sql`(p.audio_url is not null and p.image_url is null and p.content = ${VOICE_ONLY_TEXT})`;
  const result = await db.execute(sql`
    select ${sql.raw(POST_COLUMNS)}, ${likedBy(viewerId)}
    from publications p join profiles a on a.id = p.user_id
    where ${LIVE}
      and p.category in (${inList(input.moods)})
      and (
        (${folded(sql`p.content`)} like ${pattern} ${ESCAPE} and not ${voiceOnly})
        or ${folded(sql`p.nickname`)} like ${pattern} ${ESCAPE}
        or ${folded(sql`a.username`)} like ${pattern} ${ESCAPE}
        ${byLabel.length > 0 ? sql`or p.category in (${inList(byLabel)})` : sql``}
      )
    order by p.created_at desc, p.id desc
    limit ${SEARCH_MAX_RESULTS}`);
  return (result.rows as unknown as PostRow[]).map(toPostDto);
}
