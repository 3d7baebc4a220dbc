/**
 * Posts: the 24-hour feed, one active post per person, creation on land, deletion by the owner.
 * The 24 h window is always computed by the database clock (`now()`), never by a server's.
 */
import { sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { POST_LIFETIME_MS, sanitizeText, VOICE_ONLY_TEXT, type CreatePostInput, type PostDto } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { publications } from '../../db/schema.ts';
import { AppError, badRequest, conflict, fail } from '../../errors.ts';
import { POST_COLUMNS, toPostDto, type PostRow } from './dto.ts';

/** A post's lifetime (core's POST_LIFETIME_MS) as an SQL interval, inlined: it is a constant. */
export const LIFETIME = sql.raw(`interval '${POST_LIFETIME_MS} milliseconds'`);
/** The SQL condition of a live post: younger than its lifetime by the database clock. */
export const LIVE = sql`p.created_at > now() - ${LIFETIME}`;
/** `publications` as `p`, for query-builder reads that share LIVE and the raw reads' columns. */
export const posts = alias(publications, 'p');
const columns = sql.raw(POST_COLUMNS);

/** The `is_liked_by_user` column of a post read for this viewer (false for a visitor). */
export function likedBy(viewerId: string | null) {
  return viewerId
    ? sql`exists (select 1 from likes l where l.publication_id = p.id and l.user_id = ${viewerId}) as is_liked_by_user`
    : sql`false as is_liked_by_user`;
}

export async function listLivePosts(db: Db, viewerId: string | null): Promise<PostDto[]> {
  const result = await db.execute(sql`
    select ${columns}, ${likedBy(viewerId)}
    from publications p join profiles a on a.id = p.user_id
    where ${LIVE}
    order by p.created_at desc`);
  return (result.rows as unknown as PostRow[]).map(toPostDto);
}

export async function getLivePost(db: Db, id: string, viewerId: string | null): Promise<PostDto | null> {
  const result = await db.execute(sql`
    select ${columns}, ${likedBy(viewerId)}
    from publications p join profiles a on a.id = p.user_id
    where p.id = ${id} and ${LIVE}`);
  const row = result.rows[0] as unknown as PostRow | undefined;
  return row ? toPostDto(row) : null;
}

export async function getActivePost(db: Db, userId: string): Promise<PostDto | null> {
  const result = await db.execute(sql`
    select ${columns}, ${likedBy(userId)}
    from publications p join profiles a on a.id = p.user_id
    where p.user_id = ${userId} and ${LIVE}
    order by p.created_at desc limit 1`);
  const row = result.rows[0] as unknown as PostRow | undefined;
  return row ? toPostDto(row) : null;
}

/** Text after the spec's sanitising: a critical risk is refused, markup is stripped. */
export function cleanContent(content: string): string {
  const result = sanitizeText(content);
  if (result.risk === 'critical') throw badRequest('content_forbidden');
  return result.value.trim();
}

export interface CreatePostDeps {
  db: Db;
  isOnLand: (lat: number, lon: number) => Promise<boolean>;
}

/**
 * Creates the post. One active post per person holds under concurrency: the creator's rows are
 * serialised by a transaction-scoped advisory lock, then the live-post check and the insert run
 * inside that lock (ten simultaneous creates by one person: exactly one succeeds).
 */
export async function createPost({ db, isOnLand }: CreatePostDeps, userId: string, input: CreatePostInput): Promise<PostDto> {
  const text = cleanContent(input.content);
  if (!text && !input.imageUploadId && !input.audioUploadId) throw badRequest('content_required');
  if (!(await isOnLand(input.latitude, input.longitude))) throw badRequest('not_on_land');

  const id = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`post:${userId}`}, 0))`);
    const active = await tx.execute(sql`select 1 from publications p where p.user_id = ${userId} and ${LIVE} limit 1`);
    if (active.rows.length > 0) throw conflict('post_active_exists');

    const image = input.imageUploadId ? await claimUpload(tx as unknown as Db, userId, input.imageUploadId, 'post_image') : null;
    const audio = input.audioUploadId ? await claimUpload(tx as unknown as Db, userId, input.audioUploadId, 'voice') : null;
    if (input.usePulseEffect) {
      const spent = await tx.execute(sql`
        update profiles set pulse_credits = pulse_credits - 1 where id = ${userId} and pulse_credits > 0 returning id`);
      if (spent.rows.length === 0) throw badRequest('pulse_no_credits');
    }
    // Spec §5: a voice-only post stores 'Message vocal' (never displayed).
    const content = text || (audio && !image ? VOICE_ONLY_TEXT : '');
    const inserted = await tx.execute(sql`
      insert into publications (user_id, category, content, latitude, longitude, nickname, image_url, thumbnail_url, media_urls, audio_url, audio_duration, has_pulse_effect)
      select ${userId}, ${input.category}, ${content}, ${input.latitude}, ${input.longitude}, pr.username,
             ${image?.url ?? null}, ${image?.thumbnail_url ?? null}, ${JSON.stringify(image ? [image.url] : [])}::jsonb,
             ${audio?.url ?? null}, ${audio?.duration_seconds ?? null}, ${input.usePulseEffect}
      from profiles pr where pr.id = ${userId}
      returning id`);
    const row = inserted.rows[0] as { id: string } | undefined;
    if (!row) throw fail(500, 'post_create_failed');
    return row.id;
  });
  const post = await getLivePost(db, id, userId);
  if (!post) throw fail(500, 'post_create_failed');
  return post;
}

interface ClaimedUpload {
  url: string;
  thumbnail_url: string | null;
  duration_seconds: number | null;
}

/** Attaches an upload of the caller's to the post; anyone else's, or a used one, is refused. */
async function claimUpload(db: Db, userId: string, uploadId: string, kind: 'post_image' | 'voice'): Promise<ClaimedUpload> {
  const result = await db.execute(sql`
    update uploads set claimed_at = now()
    where id = ${uploadId} and user_id = ${userId} and kind = ${kind} and claimed_at is null
    returning url, thumbnail_url, duration_seconds`);
  const row = result.rows[0] as unknown as ClaimedUpload | undefined;
  if (!row) throw badRequest('upload_failed');
  return row;
}

/** Deletes the caller's own post; returns its media URLs for the storage to drop. */
export async function deletePost(db: Db, userId: string, postId: string): Promise<string[]> {
  const found = await db.execute(sql`select user_id from publications where id = ${postId}`);
  const owner = (found.rows[0] as { user_id: string } | undefined)?.user_id;
  if (!owner) throw new AppError(404, 'post_not_found');
  if (owner !== userId) throw fail(403, 'post_delete_impossible');
  // The tombstone is written by the same statement: the changes feed (feed.ts) never misses it.
  const deleted = await db.execute(sql`
    with d as (
      delete from publications where id = ${postId} and user_id = ${userId}
      returning id, image_url, thumbnail_url, audio_url
    ), t as (
      insert into post_tombstones (post_id) select id from d on conflict (post_id) do nothing
    )
    select image_url, thumbnail_url, audio_url from d`);
  const row = deleted.rows[0] as { image_url: string | null; thumbnail_url: string | null; audio_url: string | null } | undefined;
  if (!row) throw new AppError(404, 'post_not_found');
  return [row.image_url, row.thumbnail_url, row.audio_url].filter((u): u is string => Boolean(u));
}

export async function recordUpload(db: Db, userId: string, upload: { kind: 'post_image' | 'voice'; url: string; thumbnailUrl?: string | null; durationSeconds?: number | null }): Promise<string> {
  const result = await db.execute(sql`
    insert into uploads (user_id, kind, url, thumbnail_url, duration_seconds)
    values (${userId}, ${upload.kind}, ${upload.url}, ${upload.thumbnailUrl ?? null}, ${upload.durationSeconds ?? null})
    returning id`);
  return (result.rows[0] as { id: string }).id;
}
