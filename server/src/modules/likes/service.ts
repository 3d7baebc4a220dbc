/**
 * Likes: one like per person and post, toggled. The post row is locked
 * first, so toggles of one post run one after another and `likes_count` moves with the rows in
 * the same transaction: the count can never drift from `count(*)` of likes.
 */
import type { LikeToggleResult } from '@moodmap/core';
import type { PostPlace } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { addLike, lockLivePost, moveLikesCount, removeLike } from './data.ts';

/** The caller's new like state and the count, with the post's place and author (the event's `at` and `about`). */
export async function toggleLike(db: Db, postId: string, userId: string): Promise<LikeToggleResult & { at: PostPlace; authorId: string }> {
  return db.transaction(async (tx) => {
    if (!(await lockLivePost(tx, postId))) throw notFound('post_not_found');
    const liked = !(await removeLike(tx, postId, userId));
    if (liked) await addLike(tx, postId, userId);
    const { likesCount, at, authorId } = await moveLikesCount(tx, postId, liked ? 1 : -1);
    return { liked, likesCount, at, authorId };
  });
}
