/**
 * The comments API's contract (docs/product.md, Likes and comments): the comment input with one
 * catalogue text per rule, shared by the comment form and the server, and every answer.
 */
import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { isCritical, stripMarkup } from '../sanitize.ts';
import { authorSchema } from './post.ts';
import { COMMENT_TEXT_MAX } from '../contract.ts';
export { COMMENT_TEXT_MAX } from '../contract.ts';

/**
 * A comment's text: trimmed and non-blank, at most 500 characters as typed, refused when critical
 * (an attack, not text), then stripped of markup (sanitize.ts). The length comes first
 * and aborts, so an over-long text is refused without being scanned.
 */
export const commentContentSchema = z
  .string({ error: MESSAGES.comment_required })
  .trim()
  .min(1, { error: MESSAGES.comment_required, abort: true })
  .max(COMMENT_TEXT_MAX, { error: MESSAGES.comment_too_long, abort: true })
  .refine((v) => !isCritical(v), { error: MESSAGES.content_forbidden, abort: true })
  .transform((v) => stripMarkup(v).trim())
  .pipe(z.string().min(1, MESSAGES.comment_required));

export const commentInputSchema = z.object({ content: commentContentSchema });
export type CommentInput = z.infer<typeof commentInputSchema>;

/** A comment as the API returns it, with its author's public fields (view comments_with_profiles). */
export const commentSchema = z.object({
  id: z.string(),
  postId: z.string(),
  userId: z.string(),
  content: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  isEdited: z.boolean(),
  author: authorSchema,
});
export type CommentDto = z.infer<typeof commentSchema>;

/** `GET /api/posts/:id/comments`: oldest first. */
export const commentsListResponseSchema = z.object({ comments: z.array(commentSchema) });
/** `POST /api/posts/:id/comments` (201): the comment and the post's new count. */
export const commentCreatedResponseSchema = z.object({ comment: commentSchema, commentsCount: z.number() });
/** `PATCH /api/comments/:id`. */
export const commentEditedResponseSchema = z.object({ comment: commentSchema });
/** `DELETE /api/comments/:id`: the post's new count. */
export const commentDeletedResponseSchema = z.object({ commentsCount: z.number() });
