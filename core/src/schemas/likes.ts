/**
 * The likes API's contract: `PUT` / `DELETE /api/posts/:id/like` set or remove the caller's like
 * (idempotent); `POST` toggles it (deprecated alias).
 */
import { z } from 'zod';
import { postSchema } from './post.ts';

/** The answer of PUT and DELETE: the post's fields the web caches, so it lands as is. */
export const likeStateSchema = postSchema.pick({ likesCount: true, isLikedByUser: true });
export type LikeState = z.infer<typeof likeStateSchema>;

/** The deprecated toggle's answer: whether the caller now likes the post, and its new count. */
export const likeToggleResultSchema = z.object({ liked: z.boolean(), likesCount: z.number() });
export type LikeToggleResult = z.infer<typeof likeToggleResultSchema>;
