/**
 * Deletes what has outlived its time: posts past their lifetime (POST_LIFETIME_MS, by the database clock) with
 * their media (leaving tombstones for the changes feed), uploads never attached to a post within
 * an hour, and tombstones an hour after the oldest cursor expires. Runs every minute on every instance; the deletes
 * are idempotent, so instances sweeping at once do no harm.
 */
import { sql } from 'drizzle-orm';
import { POST_LIFETIME_MS } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { LIFETIME } from './service.ts';

/** Tombstones outlive the oldest cursor (a post's lifetime) by an hour; claimed uploads their post. */
const LIFETIME_AND_AN_HOUR = sql.raw(`interval '${POST_LIFETIME_MS + 3_600_000} milliseconds'`);

export interface SweepResult {
  posts: string[];
  mediaUrls: string[];
}

export async function sweepExpired(db: Db): Promise<SweepResult> {
  // Tombstones in the same statement, for the changes feed (feed.ts); kept 25 h, cursors live 24.
  const posts = await db.execute(sql`
    with d as (
      delete from publications where created_at <= now() - ${LIFETIME}
      returning id, image_url, thumbnail_url, audio_url
    ), t as (
      insert into post_tombstones (post_id) select id from d on conflict (post_id) do nothing
    )
    select id, image_url, thumbnail_url, audio_url from d`);
  await db.execute(sql`delete from post_tombstones where deleted_at <= now() - ${LIFETIME_AND_AN_HOUR}`);
  const uploads = await db.execute(sql`
    delete from uploads
    where (claimed_at is null and created_at <= now() - interval '1 hour')
       or (claimed_at is not null and claimed_at <= now() - ${LIFETIME_AND_AN_HOUR})
    returning url, thumbnail_url, claimed_at`);
  const postRows = posts.rows as Array<{ id: string; image_url: string | null; thumbnail_url: string | null; audio_url: string | null }>;
  // Claimed uploads' files belong to their post (deleted with it); only orphans' files go here.
  const orphanRows = (uploads.rows as Array<{ url: string; thumbnail_url: string | null; claimed_at: unknown }>).filter((u) => !u.claimed_at);
  const mediaUrls = [
    ...postRows.flatMap((p) => [p.image_url, p.thumbnail_url, p.audio_url]),
    ...orphanRows.flatMap((u) => [u.url, u.thumbnail_url]),
  ].filter((u): u is string => Boolean(u));
  return { posts: postRows.map((p) => p.id), mediaUrls };
}
