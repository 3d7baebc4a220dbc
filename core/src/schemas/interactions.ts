/**
 * The interactions on a post: likes, comments, reports and search each have their
 * contract in a file of their own; this one holds the realtime events about them.
 */
import type { CommentDto } from './comments.ts';

/** Realtime events of the map feed about interactions (everyone watching receives them). */
export type InteractionEvent =
  | { type: 'post.liked'; data: { postId: string; likesCount: number } }
  | {
      type: 'post.commented';
      data: { postId: string; commentsCount: number; comment?: CommentDto; removedCommentId?: string };
    };
