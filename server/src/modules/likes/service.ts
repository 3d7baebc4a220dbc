/**
 * Likes: one like per person and post, set or removed (a repeat changes nothing), or toggled by
 * the deprecated alias. The post row is locked first, so writes on one post run one after another
 * and `likes_count` moves with the rows in the same transaction: the count can never drift from
 * `count(*)` of likes.
 */
import type { LikeState } from '@moodmap/core';
import type { PostPlace } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { addLike, lockLivePost, moveLikesCount, removeLike } from './data.ts';

/** The post's place and author when the count moved: the event's `at` and `about`. */
export interface LikeMove {
  at: PostPlace;
  authorId: string;
}

export interface LikeOutcome {
  state: LikeState;
  /** Null when the caller's like already was as asked: nothing to announce. */
  moved: LikeMove | null;
}

async function lockedCount(tx: Db, postId: string): Promise<number> {
  const count = await lockLivePost(tx, postId);
  if (count === null) throw notFound('post_not_found');
  return count;
}

async function settle(tx: Db, postId: string, liked: boolean, changed: boolean, count: number): Promise<LikeOutcome> {
  if (!changed) return { state: { likesCount: count, isLikedByUser: liked }, moved: null };
  const { likesCount, ...moved } = await moveLikesCount(tx, postId, liked ? 1 : -1);
  return { state: { likesCount, isLikedByUser: liked }, moved };
}

/** Makes the caller like the post (`liked`) or not; the same answer however often it is repeated. */
export async function setLike(db: Db, postId: string, userId: string, liked: boolean): Promise<LikeOutcome> {
  return db.transaction(async (tx) => {
    const count = await lockedCount(tx, postId);
    const changed = liked ? await addLike(tx, postId, userId) : await removeLike(tx, postId, userId);
    return settle(tx, postId, liked, changed, count);
  });
}

/** Flips the caller's like (the deprecated POST): it always moves the count. */
export async function toggleLike(db: Db, postId: string, userId: string): Promise<LikeOutcome> {
  return db.transaction(async (tx) => {
    const count = await lockedCount(tx, postId);
    const liked = !(await removeLike(tx, postId, userId));
    if (liked) await addLike(tx, postId, userId);
    return settle(tx, postId, liked, true, count);
  });
}
