/**
 * Likes (spec §7 toggle_like): one like per person and post, toggled. The post row is locked
 * first, so toggles of one post run one after another and `likes_count` moves with the rows in
 * the same transaction: the count can never drift from `count(*)` of likes.
 */
import { sql } from 'drizzle-orm';
import type { LikeToggleResult } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { LIVE } from '../posts/service.ts';

export async function toggleLike(db: Db, postId: string, userId: string): Promise<LikeToggleResult> {
  return db.transaction(async (tx) => {
    const post = await tx.execute(sql`select p.id from publications p where p.id = ${postId} and ${LIVE} for update`);
    if (post.rows.length === 0) throw notFound('post_not_found');

    const removed = await tx.execute(sql`delete from likes where publication_id = ${postId} and user_id = ${userId} returning user_id`);
    const liked = removed.rows.length === 0;
    if (liked) await tx.execute(sql`insert into likes (publication_id, user_id) values (${postId}, ${userId})`);
    const updated = await tx.execute(sql`
      update publications set likes_count = likes_count + ${liked ? 1 : -1}
      where id = ${postId} returning likes_count`);
    return { liked, likesCount: Number((updated.rows[0] as { likes_count: number }).likes_count) };
  });
}
