/**
 * Posts as the API sends them, read with core's schemas (the ones the server declares on its
 * routes): one definition of the post, shared with the server.
 */
import type { z } from 'zod';
import { MESSAGES, type MessageKey, type PostDto, type PostsFeed, postSchema } from '@moodmap/core';
import { ApiError } from '../../lib/api.ts';

export type { PostDto, PostsFeed };
export type PostAuthor = PostDto['author'];

/**
 * An API answer checked against its core schema. An answer of another shape is a failure of the
 * call (status 500, `failure`'s French text), never half-read data.
 */
export function parseAnswer<S extends z.ZodType>(schema: S, payload: unknown, failure: MessageKey = 'internal_error'): z.output<S> {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new ApiError(500, failure, MESSAGES[failure]);
  return parsed.data;
}

/** One post pushed outside an API answer (a realtime event, a profile's posts), or null when it is not one. */
export function readPost(value: unknown): PostDto | null {
  const parsed = postSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The image a card shows first: the post's image, else its first media URL. */
export function firstImage(post: Pick<PostDto, 'imageUrl' | 'mediaUrls'>): string | null {
  return post.imageUrl ?? post.mediaUrls[0] ?? null;
}
