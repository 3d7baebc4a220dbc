/**
 * Posts: the 24-hour feed, one active post per person, creation on land, deletion by the owner
 * (who may do what: policies/posts.ts). The 24 h window is always computed by the database clock
 * (`now()`), never by a server's.
 */
import { sanitizeText, VOICE_ONLY_TEXT, type CreatePostInput, type MarkerDto, type PostDto } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { badRequest, appError, notFound } from '../../errors.ts';
import { enforce, type Member } from '../../policies/actor.ts';
import { mayDeletePost, mayPublish } from '../../policies/posts.ts';
import {
  claimUpload,
  deleteOwnPost,
  getActiveCard,
  getLiveCard,
  getLiveCardsByIds,
  getLiveMarker,
  hasLivePost,
  insertPost,
  insertUpload,
  listLiveCards,
  lockAuthor,
  postOwner,
  spendPulseCredit,
  type DeletedPost,
} from './data.ts';
import { toMarkerDto, toPostDto } from './dto.ts';
import type { Point } from './approximate.ts';
import type { LandDecision } from '../../adapters/geocoder/index.ts';

// Likes, comments and reports read live posts through these.
export { LIFETIME, LIVE, posts } from './data.ts';

export async function listLivePosts(db: Db, viewerId: string | null): Promise<PostDto[]> {
  return (await listLiveCards(db, viewerId)).map(toPostDto);
}

export async function getLivePost(db: Db, id: string, viewerId: string | null): Promise<PostDto | null> {
  const row = await getLiveCard(db, id, viewerId);
  return row ? toPostDto(row) : null;
}

/** The live posts among `ids` (already checked: uuids, at most POST_CARDS_MAX), newest first. */
export async function getLivePosts(db: Db, ids: string[], viewerId: string | null): Promise<PostDto[]> {
  return (await getLiveCardsByIds(db, ids, viewerId)).map(toPostDto);
}

export async function getActivePost(db: Db, userId: string): Promise<PostDto | null> {
  const row = await getActiveCard(db, userId);
  return row ? toPostDto(row) : null;
}

/** Text after sanitising: a critical risk is refused, markup is stripped. */
export function cleanContent(content: string): string {
  const result = sanitizeText(content);
  if (result.risk === 'critical') throw badRequest('content_forbidden');
  return result.value.trim();
}

export interface CreatePostDeps {
  db: Db;
  isOnLand: (lat: number, lon: number) => Promise<LandDecision>;
  /** Where an approximate post is published (approximate.ts, on the context's land). */
  approximate: (lat: number, lon: number) => Point;
}

/**
 * Creates the post. One active post per person holds under concurrency: the creator's rows are
 * serialised by a transaction-scoped advisory lock, then the live-post check and the insert run
 * inside that lock (ten simultaneous creates by one person: exactly one succeeds).
 */
/** The new post as its author's card and as the map's marker (post.created). */
export interface CreatedPost {
  post: PostDto;
  marker: MarkerDto;
}

/** The validated body; `approximate` may be left out by callers inside the server (exact position). */
export type NewPostInput = Omit<CreatePostInput, 'approximate'> & Partial<Pick<CreatePostInput, 'approximate'>>;

export async function createPost(
  { db, isOnLand, approximate }: CreatePostDeps,
  userId: string,
  input: NewPostInput,
): Promise<CreatedPost> {
  const text = cleanContent(input.content);
  if (!text && !input.imageUploadId && !input.audioUploadId) throw badRequest('content_required');
  const place = await isOnLand(input.latitude, input.longitude);
  if (place !== 'land') throw badRequest(place === 'sea' ? 'open_sea' : 'not_on_land');
  // The land check above is on the exact point; an approximate post is published at its cell's
  // point and keeps the exact one aside, so no reader of latitude/longitude can see it.
  const published = input.approximate ? approximate(input.latitude, input.longitude) : input;
  const exact = input.approximate ? { exactLatitude: input.latitude, exactLongitude: input.longitude } : {};

  const id = await db.transaction(async (tx) => {
    await lockAuthor(tx, userId);
    enforce(mayPublish({ hasLivePost: await hasLivePost(tx, userId) }));

    const image = input.imageUploadId ? await claim(tx, userId, input.imageUploadId, 'post_image') : null;
    const audio = input.audioUploadId ? await claim(tx, userId, input.audioUploadId, 'voice') : null;
    if (input.usePulseEffect && !(await spendPulseCredit(tx, userId))) throw badRequest('pulse_no_credits');
    // A voice-only post stores 'Message vocal' (never displayed).
    const content = text || (audio && !image ? VOICE_ONLY_TEXT : '');
    const inserted = await insertPost(tx, userId, {
      category: input.category,
      content,
      latitude: published.latitude,
      longitude: published.longitude,
      ...exact,
      imageUrl: image?.url ?? null,
      thumbnailUrl: image?.thumbnailUrl ?? null,
      mediaUrls: image ? [image.url] : [],
      audioUrl: audio?.url ?? null,
      audioDuration: audio?.durationSeconds ?? null,
      hasPulseEffect: input.usePulseEffect,
    });
    if (!inserted) throw appError(500, 'post_create_failed');
    return inserted;
  });
  const [post, marker] = await Promise.all([getLivePost(db, id, userId), getLiveMarker(db, id)]);
  if (!post || !marker) throw appError(500, 'post_create_failed');
  return { post, marker: toMarkerDto(marker) };
}

async function claim(tx: Db, userId: string, uploadId: string, kind: 'post_image' | 'voice') {
  const row = await claimUpload(tx, userId, uploadId, kind);
  if (!row) throw badRequest('upload_failed');
  return row;
}

/** Deletes the member's own post; returns where it was (for the map events) and its media URLs. */
export async function deletePost(db: Db, member: Member, postId: string): Promise<DeletedPost> {
  const owner = await postOwner(db, postId);
  if (!owner) throw notFound('post_not_found');
  enforce(mayDeletePost(member, { userId: owner }));
  const deleted = await deleteOwnPost(db, member.userId, postId);
  if (!deleted) throw notFound('post_not_found');
  return deleted;
}

export async function recordUpload(
  db: Db,
  userId: string,
  upload: { kind: 'post_image' | 'voice'; url: string; thumbnailUrl?: string | null; durationSeconds?: number | null },
): Promise<string> {
  return insertUpload(db, userId, upload);
}
