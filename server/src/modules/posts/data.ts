/**
 * The posts module's data access: reads and writes of publications on
 * Drizzle's query builder, rows typed by the schema. Raw SQL stays where it is clearly better:
 * the author's advisory lock and the delete + tombstone statement (sweeper.ts likewise).
 * The post lifetime is core's POST_LIFETIME_MS, compared with the database clock (`now()`).
 */
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { POST_LIFETIME_MS } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { profiles, publications, uploads } from '../../db/schema.ts';
import { spendFromOldestPurchase } from '../payments/spending.ts';

/** A post's lifetime (core's POST_LIFETIME_MS) as an SQL interval, inlined: it is a constant. */
export const LIFETIME = sql.raw(`interval '${POST_LIFETIME_MS} milliseconds'`);
/** `publications` as `p`, for reads that share LIVE. */
export const posts = alias(publications, 'p');
/**
 * The SQL condition of a live post: younger than its lifetime by the database clock, and not
 * hidden by moderation (pending review or removed; the partial marker index holds
 * exactly these rows).
 */
export const LIVE = sql`${posts.createdAt} > now() - ${LIFETIME} and ${posts.hiddenState} is null`;

export type Publication = typeof publications.$inferSelect;

/** What the map draws of a post (core's markerSchema); the feed reads it as JSON (feed.ts MARKER_JSON). */
export const markerColumns = {
  id: posts.id,
  userId: posts.userId,
  category: posts.category,
  latitude: posts.latitude,
  longitude: posts.longitude,
  nickname: posts.nickname,
  authorPhotoUrl: posts.authorPhotoUrl,
  hasPulseEffect: posts.hasPulseEffect,
  createdAt: posts.createdAt,
};
export type MarkerRow = Pick<Publication, keyof typeof markerColumns>;

/** The `isLikedByUser` of a card read for this viewer (false for a visitor). */
function likedBy(viewerId: string | null) {
  return viewerId
    ? sql<boolean>`exists (select 1 from likes l where l.publication_id = ${posts.id} and l.user_id = ${viewerId})`
    : sql<boolean>`false`;
}

/** A card: the whole post, its author's public fields, the viewer's like. */
function cards(db: Db, viewerId: string | null) {
  return db
    .select({
      post: posts,
      author: {
        username: profiles.username,
        photoUrl: profiles.profilePhotoUrl,
        isPremium: profiles.isPremium,
        isPro: profiles.isPro,
        isPlus: profiles.isPlus,
        isMulti: profiles.isMulti,
      },
      isLikedByUser: likedBy(viewerId),
    })
    .from(posts)
    .innerJoin(profiles, eq(profiles.id, posts.userId))
    .$dynamic();
}
export type CardRow = Awaited<ReturnType<typeof cards>>[number];

/** Live cards matching `where`, newest first (the search adds its own conditions). */
export function liveCards(db: Db, viewerId: string | null, where?: ReturnType<typeof and>, limit?: number) {
  const query = cards(db, viewerId).where(and(LIVE, where)).orderBy(desc(posts.createdAt), desc(posts.id));
  return limit === undefined ? query : query.limit(limit);
}

export const listLiveCards = (db: Db, viewerId: string | null) => liveCards(db, viewerId);

export async function getLiveCard(db: Db, id: string, viewerId: string | null): Promise<CardRow | undefined> {
  const [row] = await liveCards(db, viewerId, eq(posts.id, id), 1);
  return row;
}

export const getLiveCardsByIds = (db: Db, ids: string[], viewerId: string | null) =>
  liveCards(db, viewerId, inArray(posts.id, ids));

export const liveCardsOfUser = (db: Db, userId: string, viewerId: string | null) =>
  liveCards(db, viewerId, eq(posts.userId, userId));

/** The author's live post, if any (at most one: createPost's rule). */
export async function getActiveCard(db: Db, userId: string): Promise<CardRow | undefined> {
  const [row] = await liveCards(db, userId, eq(posts.userId, userId), 1);
  return row;
}

/** Where the live posts of some people stand (a viewer's blocked people, taken out of clusters). */
export function livePlacesOf(db: Db, userIds: string[]) {
  return db
    .select({ latitude: posts.latitude, longitude: posts.longitude, category: posts.category })
    .from(posts)
    .where(and(inArray(posts.userId, userIds), LIVE));
}

/** The live marker of a post (what post.created carries). */
export async function getLiveMarker(db: Db, id: string): Promise<MarkerRow | undefined> {
  const [row] = await db
    .select(markerColumns)
    .from(posts)
    .where(and(eq(posts.id, id), LIVE))
    .limit(1);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Writes

/** Serialises one author's creates until the transaction ends (one active post per person). */
export async function lockAuthor(tx: Db, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`post:${userId}`}, 0))`);
}

export async function hasLivePost(tx: Db, userId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.userId, userId), LIVE))
    .limit(1);
  return rows.length > 0;
}

/** Attaches an upload of the caller's to a post: undefined for anyone else's, or a used one. */
export async function claimUpload(tx: Db, userId: string, uploadId: string, kind: 'post_image' | 'voice') {
  const [row] = await tx
    .update(uploads)
    .set({ claimedAt: sql`now()` })
    .where(and(eq(uploads.id, uploadId), eq(uploads.userId, userId), eq(uploads.kind, kind), isNull(uploads.claimedAt)))
    .returning({ url: uploads.url, thumbnailUrl: uploads.thumbnailUrl, durationSeconds: uploads.durationSeconds });
  return row;
}

/** Takes one pulse credit, from the oldest purchase that has one; false when there is none left. */
export async function spendPulseCredit(tx: Db, userId: string): Promise<boolean> {
  const rows = await tx
    .update(profiles)
    .set({ pulseCredits: sql`${profiles.pulseCredits} - 1` })
    .where(and(eq(profiles.id, userId), sql`${profiles.pulseCredits} > 0`))
    .returning({ id: profiles.id });
  if (rows.length === 0) return false;
  await spendFromOldestPurchase(tx, userId);
  return true;
}

export type NewPost = Pick<
  typeof publications.$inferInsert,
  | 'category'
  | 'content'
  | 'latitude'
  | 'longitude'
  | 'imageUrl'
  | 'thumbnailUrl'
  | 'mediaUrls'
  | 'audioUrl'
  | 'audioDuration'
  | 'hasPulseEffect'
  | 'exactLatitude'
  | 'exactLongitude'
>;

/** Inserts the post with its author's current username and photo (read by the same statement). */
export async function insertPost(tx: Db, userId: string, post: NewPost): Promise<string | undefined> {
  const [row] = await tx
    .insert(publications)
    .values({
      ...post,
      userId,
      nickname: sql`(select ${profiles.username} from ${profiles} where ${profiles.id} = ${userId})`,
      authorPhotoUrl: sql`(select ${profiles.profilePhotoUrl} from ${profiles} where ${profiles.id} = ${userId})`,
    })
    .returning({ id: publications.id });
  return row?.id;
}

export async function postOwner(db: Db, postId: string): Promise<string | undefined> {
  const [row] = await db.select({ userId: publications.userId }).from(publications).where(eq(publications.id, postId));
  return row?.userId;
}

export interface DeletedPost {
  id: string;
  /** Its author: the hub keeps the event from the people they blocked or were blocked by. */
  userId: string;
  latitude: number;
  longitude: number;
  /** Its media, for the storage to drop. */
  mediaUrls: string[];
}

/** A row of DELETED_COLUMNS, read from a raw query whose values the driver leaves untyped. */
export function toDeletedPost(row: Record<string, unknown>): DeletedPost {
  return {
    id: String(row.id),
    userId: String(row.userId),
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
    mediaUrls: [row.imageUrl, row.thumbnailUrl, row.audioUrl].filter(
      (u): u is string => typeof u === 'string' && u !== '',
    ),
  };
}

/** The columns a delete returns, as toDeletedPost names them. */
export const DELETED_COLUMNS = sql.raw(
  'id, user_id as "userId", latitude, longitude, image_url as "imageUrl", thumbnail_url as "thumbnailUrl", audio_url as "audioUrl"',
);

/**
 * Deletes the owner's post and writes its tombstone in the same statement, so the changes feed
 * (feed.ts) never misses it; the cells trigger removes it from post_cells in that transaction.
 */
export async function deleteOwnPost(db: Db, userId: string, postId: string): Promise<DeletedPost | undefined> {
  const deleted = await db.execute(sql`
    with d as (
      delete from ${publications} where id = ${postId} and user_id = ${userId}
      returning ${DELETED_COLUMNS}
    ), t as (
      insert into post_tombstones (post_id, latitude, longitude) select id, latitude, longitude from d on conflict (post_id) do nothing
    )
    select * from d`);
  const row = deleted.rows[0];
  return row ? toDeletedPost(row) : undefined;
}

export async function insertUpload(
  db: Db,
  userId: string,
  upload: { kind: 'post_image' | 'voice'; url: string; thumbnailUrl?: string | null; durationSeconds?: number | null },
): Promise<string> {
  const [row] = await db
    .insert(uploads)
    .values({
      userId,
      kind: upload.kind,
      url: upload.url,
      thumbnailUrl: upload.thumbnailUrl ?? null,
      durationSeconds: upload.durationSeconds ?? null,
    })
    .returning({ id: uploads.id });
  return row!.id;
}

/** The author's photo on every post of theirs, in the transaction that changes the profile's. */
export async function setAuthorPhoto(tx: Db, userId: string, photoUrl: string | null): Promise<void> {
  await tx.update(publications).set({ authorPhotoUrl: photoUrl }).where(eq(publications.userId, userId));
}
