/** The comments API (server/src/modules/comments/routes.ts), read with core's response schemas. */
import type { CommentDto } from '@moodmap/core';
import { api } from '../../lib/api.ts';
import { parseAnswerLazy, readLazy } from '../../lib/schemas.ts';

/** One comment pushed by the realtime socket, or null when it is not one. */
export function readComment(value: unknown): Promise<CommentDto | null> {
  return readLazy((s) => s.commentSchema, value);
}

const path = (postId: string) => `/api/posts/${encodeURIComponent(postId)}/comments`;

/** Oldest first, each with its author. */
export async function fetchComments(postId: string, signal?: AbortSignal): Promise<CommentDto[]> {
  return (
    await parseAnswerLazy(
      (s) => s.commentsListResponseSchema,
      await api<unknown>(path(postId), { signal, auth: false }),
    )
  ).comments;
}

export interface CommentAnswer {
  comment: CommentDto;
  commentsCount: number;
}

export async function postComment(postId: string, content: string): Promise<CommentAnswer> {
  return parseAnswerLazy(
    (s) => s.commentCreatedResponseSchema,
    await api<unknown>(path(postId), { method: 'POST', body: { content } }),
  );
}

export async function patchComment(id: string, content: string): Promise<CommentDto> {
  const payload = await api<unknown>(`/api/comments/${encodeURIComponent(id)}`, { method: 'PATCH', body: { content } });
  return (await parseAnswerLazy((s) => s.commentEditedResponseSchema, payload)).comment;
}

export async function removeComment(id: string): Promise<number> {
  const payload = await api<unknown>(`/api/comments/${encodeURIComponent(id)}`, { method: 'DELETE' });
  return (await parseAnswerLazy((s) => s.commentDeletedResponseSchema, payload)).commentsCount;
}
