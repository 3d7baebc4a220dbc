/**
 * Comments (docs/product.md, Likes and comments): listed oldest first with their author, added on a
 * live post only, edited or deleted by their author only, never between a blocked pair (who may
 * do what: policies/comments.ts). Adding and deleting lock the post row and move
 * `comments_count` in the same transaction, so the count follows the rows.
 */
import type { CommentDto } from '@moodmap/core';
import type { PostPlace } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { enforce, type Member } from '../../policies/actor.ts';
import { mayComment, mayDeleteComment, mayEditComment } from '../../policies/comments.ts';
import { blockedWith } from '../blocks/data.ts';
import { postOwner } from '../posts/data.ts';
import {
  findComment,
  findCommentOwner,
  insertComment,
  isLivePost,
  listPostComments,
  lockPost,
  moveCommentsCount,
  removeComment,
  updateComment,
} from './data.ts';

async function readComment(db: Db, id: string): Promise<CommentDto> {
  const comment = await findComment(db, id);
  if (!comment) throw notFound('comment_not_found');
  return comment;
}

async function assertLive(db: Db, postId: string, lock = false): Promise<void> {
  if (!(await isLivePost(db, postId, lock))) throw notFound('post_not_found');
}

export async function listComments(db: Db, postId: string): Promise<CommentDto[]> {
  await assertLive(db, postId);
  return listPostComments(db, postId);
}

export interface CommentChange {
  comment: CommentDto;
  commentsCount: number;
  /** The post's place: the realtime event goes to the maps showing it. */
  at: PostPlace;
  /** The post's author, whom the event also tells of. */
  postAuthorId: string;
}

/** Whether the member may write on the post of `authorId` (absent: the post is gone, which the write answers with its 404). */
async function assertMayWriteOn(db: Db, member: Member, authorId: string | undefined): Promise<void> {
  if (authorId) enforce(mayComment(member, { userId: authorId }, await blockedWith(db, member, authorId)));
}

/** Adds a comment (content already validated and sanitised) to a live post. */
export async function addComment(db: Db, postId: string, member: Member, content: string): Promise<CommentChange> {
  const { userId } = member;
  await assertMayWriteOn(db, member, await postOwner(db, postId));
  return db.transaction(async (tx) => {
    await assertLive(tx, postId, true);
    const id = await insertComment(tx, postId, userId, content);
    const { commentsCount, at, postAuthorId } = await moveCommentsCount(tx, postId, 1);
    return { comment: await readComment(tx, id), commentsCount, at, postAuthorId };
  });
}

/** The comment, its post and the post's author; 404 when there is no such comment. */
async function commentOwner(db: Db, commentId: string) {
  const owner = await findCommentOwner(db, commentId);
  if (!owner) throw notFound('comment_not_found');
  return owner;
}

/** Edits the member's own comment on a live post (not on the post of someone in a blocked pair); it is marked as edited. */
export async function editComment(db: Db, commentId: string, member: Member, content: string): Promise<CommentChange> {
  const { userId } = member;
  const { postId, ...comment } = await commentOwner(db, commentId);
  enforce(mayEditComment(member, comment));
  await assertMayWriteOn(db, member, comment.postAuthorId);
  await assertLive(db, postId);
  const updated = await updateComment(db, commentId, userId, content);
  if (updated === null) throw notFound('comment_not_found');
  return { comment: await readComment(db, commentId), ...updated };
}

/**
 * Deletes the caller's own comment. Allowed after the post expired too (until the sweeper
 * removes the post with its comments): people may always take back what they wrote.
 */
export async function deleteComment(
  db: Db,
  commentId: string,
  member: Member,
): Promise<{ postId: string; commentsCount: number; at: PostPlace; postAuthorId: string }> {
  const { postId, ...comment } = await commentOwner(db, commentId);
  enforce(mayDeleteComment(member, comment));
  return db.transaction(async (tx) => {
    if (!(await lockPost(tx, postId))) throw notFound('comment_not_found');
    if (!(await removeComment(tx, commentId, member.userId))) throw notFound('comment_not_found');
    return { postId, ...(await moveCommentsCount(tx, postId, -1)) };
  });
}
