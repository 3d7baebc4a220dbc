/**
 * The search module's data access: live post cards (posts/data.ts) filtered by
 * the folded text conditions. The folding is raw SQL (translate/replace over core's tables), typed
 * as a condition; the rest is Drizzle's query builder.
 */
import { eq, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  SEARCH_FOLD_FROM,
  SEARCH_FOLD_LIGATURES,
  SEARCH_FOLD_TO,
  SEARCH_MAX_RESULTS,
  VOICE_ONLY_TEXT,
  type Mood,
} from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { profiles } from '../../db/schema.ts';
import { liveCards, posts, type CardRow } from '../posts/data.ts';

/** The SQL twin of core's foldForSearch: lower(), translate() over the same table, ligatures. */
function folded(expression: SQLWrapper): SQL {
  let result = sql`translate(lower(${expression}), ${SEARCH_FOLD_FROM}, ${SEARCH_FOLD_TO})`;
  for (const [from, to] of SEARCH_FOLD_LIGATURES) result = sql`replace(${result}, ${from}, ${to})`;
  return result;
}

const ESCAPE = sql.raw(`escape '\\'`);
const inList = (values: readonly Mood[]) =>
  sql`${posts.category} in (${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;

/**
 * Live posts of `moods` whose text, post nickname or author's current username contains
 * `pattern` (already folded and escaped), or whose mood label matched; newest first.
 */
export function findLiveCards(
  db: Db,
  pattern: string,
  moods: Mood[],
  byLabel: Mood[],
  viewerId: string | null,
): Promise<CardRow[]> {
  // The stored 'Message vocal' of a voice-only post is never displayed, so it is not searched.
  const voiceOnly = sql`(${posts.audioUrl} is not null and ${posts.imageUrl} is null and ${eq(posts.content, VOICE_ONLY_TEXT)})`;
  const matches = or(
    sql`(${folded(posts.content)} like ${pattern} ${ESCAPE} and not ${voiceOnly})`,
    sql`${folded(posts.nickname)} like ${pattern} ${ESCAPE}`,
    sql`${folded(profiles.username)} like ${pattern} ${ESCAPE}`,
    byLabel.length > 0 ? inList(byLabel) : undefined,
  );
  return liveCards(db, viewerId, sql`${inList(moods)} and (${matches})`, SEARCH_MAX_RESULTS);
}
