/** Comments (and the post's count they move), with Drizzle's query builder and inferred rows. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { CommentDto } from '@moodmap/core';
import type { PostPlace } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import { comments, commentsWithProfiles, publications } from '../../db/schema.ts';
import { LIVE, posts } from '../posts/service.ts';

type CommentRow = typeof commentsWithProfiles.$inferSelect;

function toCommentDto(row: CommentRow): CommentDto {
  return {
    id: row.id,
    postId: row.publicationId,
    userId: row.userId,
    content: row.content,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    isEdited: row.isEdited,
    author: {
      username: row.authorUsername,
      photoUrl: row.authorPhotoUrl,
      isPremium: row.authorIsPremium,
      isPro: row.authorIsPro,
      isPlus: row.authorIsPlus,
      isMulti: row.authorIsMulti,
    },
  };
}

/** One comment with its author, or null. */
export async function findComment(db: Db, id: string): Promise<CommentDto | null> {
  const [row] = await db.select().from(commentsWithProfiles).where(eq(commentsWithProfiles.id, id));
  return row ? toCommentDto(row) : null;
}

/** A post's comments, oldest first. */
export async function listPostComments(db: Db, postId: string): Promise<CommentDto[]> {
  const rows = await db
    .select()
    .from(commentsWithProfiles)
    .where(eq(commentsWithProfiles.publicationId, postId))
    .orderBy(asc(commentsWithProfiles.createdAt), asc(commentsWithProfiles.id));
  return rows.map(toCommentDto);
}

/** Whether the post is live; `lock` also locks its row until the transaction ends. */
export async function isLivePost(db: Db, postId: string, lock = false): Promise<boolean> {
  const query = db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, postId), LIVE));
  return (await (lock ? query.for('update') : query)).length > 0;
}

/** Locks the post's row (live or expired); false when it is gone. */
export async function lockPost(tx: Db, postId: string): Promise<boolean> {
  return (
    (await tx.select({ id: publications.id }).from(publications).where(eq(publications.id, postId)).for('update'))
      .length > 0
  );
}

export async function insertComment(tx: Db, postId: string, userId: string, content: string): Promise<string> {
  const [row] = await tx
    .insert(comments)
    .values({ publicationId: postId, userId, content })
    .returning({ id: comments.id });
  return row!.id;
}

/** The comment's author, its post and the post's author, or null. */
export async function findCommentOwner(db: Db, commentId: string) {
  const [row] = await db
    .select({ userId: comments.userId, postId: comments.publicationId, postAuthorId: publications.userId })
    .from(comments)
    .innerJoin(publications, eq(publications.id, comments.publicationId))
    .where(eq(comments.id, commentId));
  return row ?? null;
}

/** A post's comment count after a change, and its place (the realtime event's `at`). */
export interface CountAndPlace {
  commentsCount: number;
  at: PostPlace;
  /** The post's author, whom the event also tells of. */
  postAuthorId: string;
}

/** Edits the author's comment while its post is live; the post's count and place, or null when nothing changed. */
export async function updateComment(
  db: Db,
  commentId: string,
  userId: string,
  content: string,
): Promise<CountAndPlace | null> {
  const [row] = await db
    .update(comments)
    .set({ content, updatedAt: sql`now()`, isEdited: true })
    .from(posts)
    .where(and(eq(comments.id, commentId), eq(comments.userId, userId), eq(posts.id, comments.publicationId), LIVE))
    .returning({
      commentsCount: posts.commentsCount,
      latitude: posts.latitude,
      longitude: posts.longitude,
      postAuthorId: posts.userId,
    });
  return row
    ? {
        commentsCount: Number(row.commentsCount),
        at: { latitude: row.latitude, longitude: row.longitude },
        postAuthorId: row.postAuthorId,
      }
    : null;
}

/** Deletes the author's comment; whether there was one. */
export async function removeComment(tx: Db, commentId: string, userId: string): Promise<boolean> {
  return (
    (
      await tx
        .delete(comments)
        .where(and(eq(comments.id, commentId), eq(comments.userId, userId)))
        .returning({ id: comments.id })
    ).length > 0
  );
}

/** Moves the post's comments_count by `delta`; the new count and the post's place. */
export async function moveCommentsCount(tx: Db, postId: string, delta: 1 | -1): Promise<CountAndPlace> {
  const [row] = await tx
    .update(publications)
    .set({ commentsCount: sql`${publications.commentsCount} + ${delta}` })
    .where(eq(publications.id, postId))
    .returning({
      commentsCount: publications.commentsCount,
      latitude: publications.latitude,
      longitude: publications.longitude,
      postAuthorId: publications.userId,
    });
  return {
    commentsCount: Number(row!.commentsCount),
    at: { latitude: row!.latitude, longitude: row!.longitude },
    postAuthorId: row!.postAuthorId,
  };
}
