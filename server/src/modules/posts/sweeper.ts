/**
 * Deletes what has outlived its time: posts past their lifetime (POST_LIFETIME_MS, by the
 * database clock) with their media (leaving tombstones for the changes feed), uploads never
 * attached to a post within an hour, and tombstones an hour after the oldest cursor expires.
 * Expired posts are swept every few seconds (POST_SWEEP_EVERY_MS): their deletion is what takes
 * them out of the zoomed-out map's cell counts (post_cells, kept by triggers) and what tells the
 * cached answers and the sockets that they left. The rest is swept every minute. Only the leading
 * instance sweeps (adapters/leader); the deletes stay idempotent all the same.
 */
import { sql } from 'drizzle-orm';
import { HOUR, MINUTE, POST_LIFETIME_MS } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { publications } from '../../db/schema.ts';
import { DELETED_COLUMNS, LIFETIME, toDeletedPost, type DeletedPost } from './data.ts';

/** How late an expired post may still count in a zoomed-out cell (the points views are exact). */
export const POST_SWEEP_EVERY_MS = 5_000;
export const SWEEP_EVERY_MS = MINUTE;

/** Tombstones outlive the oldest cursor (a post's lifetime) by an hour; claimed uploads their post. */
const LIFETIME_AND_AN_HOUR = sql.raw(`interval '${POST_LIFETIME_MS + HOUR} milliseconds'`);

export interface SweepResult {
  /** Ids of the expired posts deleted. */
  posts: string[];
  /** Where they were, for the map events. */
  deleted: DeletedPost[];
  mediaUrls: string[];
}

/** Expired posts only: one indexed delete (publications_created_at_idx), tombstones in the same statement. */
export async function sweepExpiredPosts(db: Db): Promise<DeletedPost[]> {
  const result = await db.execute(sql`
    with d as (
      delete from ${publications} where created_at <= now() - ${LIFETIME}
      returning ${DELETED_COLUMNS}
    ), t as (
      insert into post_tombstones (post_id, latitude, longitude) select id, latitude, longitude from d on conflict (post_id) do nothing
    )
    select * from d`);
  return result.rows.map(toDeletedPost);
}

export async function sweepExpired(db: Db): Promise<SweepResult> {
  const deleted = await sweepExpiredPosts(db);
  await db.execute(sql`delete from post_tombstones where deleted_at <= now() - ${LIFETIME_AND_AN_HOUR}`);
  const uploads = await db.execute(sql`
    delete from uploads
    where (claimed_at is null and created_at <= now() - interval '1 hour')
       or (claimed_at is not null and claimed_at <= now() - ${LIFETIME_AND_AN_HOUR})
    returning url, thumbnail_url, claimed_at`);
  // Claimed uploads' files belong to their post (deleted with it); only orphans' files go here.
  const orphanRows = (uploads.rows as Array<{ url: string; thumbnail_url: string | null; claimed_at: unknown }>).filter(
    (u) => !u.claimed_at,
  );
  const mediaUrls = [
    ...deleted.flatMap((p) => p.mediaUrls),
    ...orphanRows.flatMap((u) => [u.url, u.thumbnail_url]),
  ].filter((u): u is string => Boolean(u));
  return { posts: deleted.map((p) => p.id), deleted, mediaUrls };
}
