/** The likes table and the post's count, with Drizzle's query builder. */
import { and, eq, sql } from 'drizzle-orm';
import type { PostPlace } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import { likes, publications } from '../../db/schema.ts';
import { LIVE, posts } from '../posts/service.ts';

/** Locks a live post's row until the transaction ends; its likes count, or null when there is no such post. */
export async function lockLivePost(tx: Db, postId: string): Promise<number | null> {
  const [row] = await tx
    .select({ likesCount: posts.likesCount })
    .from(posts)
    .where(and(eq(posts.id, postId), LIVE))
    .for('update');
  return row ? Number(row.likesCount) : null;
}

/** Removes the caller's like; whether there was one. */
export async function removeLike(tx: Db, postId: string, userId: string): Promise<boolean> {
  const removed = await tx
    .delete(likes)
    .where(and(eq(likes.publicationId, postId), eq(likes.userId, userId)))
    .returning({ userId: likes.userId });
  return removed.length > 0;
}

/** Adds the caller's like; whether it is new (one like per person and post, by the primary key). */
export async function addLike(tx: Db, postId: string, userId: string): Promise<boolean> {
  const added = await tx
    .insert(likes)
    .values({ publicationId: postId, userId })
    .onConflictDoNothing()
    .returning({ userId: likes.userId });
  return added.length > 0;
}

/** Moves the post's likes_count by `delta`; the new count, and the post's place and author for the realtime event. */
export async function moveLikesCount(
  tx: Db,
  postId: string,
  delta: 1 | -1,
): Promise<{ likesCount: number; at: PostPlace; authorId: string }> {
  const [row] = await tx
    .update(publications)
    .set({ likesCount: sql`${publications.likesCount} + ${delta}` })
    .where(eq(publications.id, postId))
    .returning({
      likesCount: publications.likesCount,
      latitude: publications.latitude,
      longitude: publications.longitude,
      authorId: publications.userId,
    });
  return {
    likesCount: Number(row!.likesCount),
    at: { latitude: row!.latitude, longitude: row!.longitude },
    authorId: row!.authorId,
  };
}
