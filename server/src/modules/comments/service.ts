/**
 * Comments (spec §4 "Posts", §7 comments): listed oldest first with their author, added on a
 * live post only, edited or deleted by their author only. Adding and deleting lock the post row
 * and move `comments_count` in the same transaction, so the count follows the rows.
 */
import { sql } from 'drizzle-orm';
import type { CommentDto } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { forbidden, notFound } from '../../errors.ts';
import { toAuthorDto, type AuthorRow } from '../posts/dto.ts';
import { LIVE } from '../posts/service.ts';

interface CommentRow extends AuthorRow {
  id: string;
  publication_id: string;
  user_id: string;
  content: string;
  created_at: string | Date;
  updated_at: string | Date;
  is_edited: boolean;
}

function toCommentDto(row: CommentRow): CommentDto {
  return {
    id: row.id,
    postId: row.publication_id,
    userId: row.user_id,
    content: row.content,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    isEdited: row.is_edited,
    author: toAuthorDto(row),
  };
}

async function readComment(db: Db, id: string): Promise<CommentDto> {
  const result = await db.execute(sql`select * from comments_with_profiles where id = ${id}`);
  const row = result.rows[0] as unknown as CommentRow | undefined;
  if (!row) throw notFound('comment_not_found');
  return toCommentDto(row);
}

async function assertLive(db: Db, postId: string, lock = false): Promise<void> {
  const found = await db.execute(sql`select p.id from publications p where p.id = ${postId} and ${LIVE} ${lock ? sql`for update` : sql``}`);
  if (found.rows.length === 0) throw notFound('post_not_found');
}

export async function listComments(db: Db, postId: string): Promise<CommentDto[]> {
  await assertLive(db, postId);
  const result = await db.execute(sql`
    select * from comments_with_profiles where publication_id = ${postId} order by created_at asc, id asc`);
  return (result.rows as unknown as CommentRow[]).map(toCommentDto);
}

export interface CommentChange {
  comment: CommentDto;
  commentsCount: number;
}

/** Adds a comment (content already validated and sanitised) to a live post. */
export async function addComment(db: Db, postId: string, userId: string, content: string): Promise<CommentChange> {
  return db.transaction(async (tx) => {
    await assertLive(tx as unknown as Db, postId, true);
    const inserted = await tx.execute(sql`
      insert into comments (publication_id, user_id, content) values (${postId}, ${userId}, ${content}) returning id`);
    const updated = await tx.execute(sql`
      update publications set comments_count = comments_count + 1 where id = ${postId} returning comments_count`);
    const comment = await readComment(tx as unknown as Db, (inserted.rows[0] as { id: string }).id);
    return { comment, commentsCount: Number((updated.rows[0] as { comments_count: number }).comments_count) };
  });
}

/** The comment's post, after checking it exists (404) and belongs to the caller (403). */
async function ownComment(db: Db, commentId: string, userId: string): Promise<string> {
  const found = await db.execute(sql`select user_id, publication_id from comments where id = ${commentId}`);
  const row = found.rows[0] as { user_id: string; publication_id: string } | undefined;
  if (!row) throw notFound('comment_not_found');
  if (row.user_id !== userId) throw forbidden();
  return row.publication_id;
}

/** Edits the caller's own comment on a live post; it is marked as edited. */
export async function editComment(db: Db, commentId: string, userId: string, content: string): Promise<CommentChange> {
  const postId = await ownComment(db, commentId, userId);
  await assertLive(db, postId);
  const updated = await db.execute(sql`
    update comments c set content = ${content}, updated_at = now(), is_edited = true
    from publications p
    where c.id = ${commentId} and c.user_id = ${userId} and p.id = c.publication_id and ${LIVE}
    returning p.comments_count`);
  const row = updated.rows[0] as { comments_count: number } | undefined;
  if (!row) throw notFound('comment_not_found');
  return { comment: await readComment(db, commentId), commentsCount: Number(row.comments_count) };
}

/**
 * Deletes the caller's own comment. Allowed after the post expired too (until the sweeper
 * removes the post with its comments): people may always take back what they wrote.
 */
export async function deleteComment(db: Db, commentId: string, userId: string): Promise<{ postId: string; commentsCount: number }> {
  const postId = await ownComment(db, commentId, userId);
  return db.transaction(async (tx) => {
    const post = await tx.execute(sql`select id from publications where id = ${postId} for update`);
    if (post.rows.length === 0) throw notFound('comment_not_found');
    const deleted = await tx.execute(sql`delete from comments where id = ${commentId} and user_id = ${userId} returning id`);
    if (deleted.rows.length === 0) throw notFound('comment_not_found');
    const updated = await tx.execute(sql`
      update publications set comments_count = comments_count - 1 where id = ${postId} returning comments_count`);
    return { postId, commentsCount: Number((updated.rows[0] as { comments_count: number }).comments_count) };
  });
}
