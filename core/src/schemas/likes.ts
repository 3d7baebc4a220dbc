/** The likes API's contract: `POST /api/posts/:id/like` toggles the caller's like. */
import { z } from 'zod';

/** The answer: whether the caller now likes the post, and its new count. */
export const likeToggleResultSchema = z.object({ liked: z.boolean(), likesCount: z.number() });
export type LikeToggleResult = z.infer<typeof likeToggleResultSchema>;
