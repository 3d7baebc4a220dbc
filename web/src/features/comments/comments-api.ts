/** The comments API (server/src/modules/comments/routes.ts), read defensively. */
import type { CommentDto } from '@moodmap/core';
import { api } from '../../lib/api.ts';

type Raw = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const bool = (v: unknown): boolean => v === true;

export function readComment(value: unknown): CommentDto | null {
  if (!value || typeof value !== 'object') return null;
  const c = value as Raw;
  const id = str(c.id);
  const postId = str(c.postId);
  if (!id || !postId) return null;
  const a = (c.author && typeof c.author === 'object' ? c.author : {}) as Raw;
  const createdAt = str(c.createdAt) ?? new Date(0).toISOString();
  return {
    id,
    postId,
    userId: str(c.userId) ?? '',
    content: typeof c.content === 'string' ? c.content : '',
    createdAt,
    updatedAt: str(c.updatedAt) ?? createdAt,
    isEdited: bool(c.isEdited),
    author: {
      username: str(a.username) ?? 'Utilisateur',
      photoUrl: str(a.photoUrl),
      isPremium: bool(a.isPremium),
      isPro: bool(a.isPro),
      isPlus: bool(a.isPlus),
      isMulti: bool(a.isMulti),
    },
  };
}

const path = (postId: string) => `/api/posts/${encodeURIComponent(postId)}/comments`;

/** Oldest first (spec §7 comments_with_profiles). */
export async function fetchComments(postId: string, signal?: AbortSignal): Promise<CommentDto[]> {
  const payload = await api<{ comments?: unknown }>(path(postId), { signal, auth: false });
  const list = Array.isArray(payload?.comments) ? payload.comments : [];
  return list.map(readComment).filter((c): c is CommentDto => c !== null);
}

export interface CommentAnswer {
  comment: CommentDto | null;
  commentsCount: number | null;
}

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, v) : null);

export async function postComment(postId: string, content: string): Promise<CommentAnswer> {
  const payload = await api<Raw>(path(postId), { method: 'POST', body: { content } });
  return { comment: readComment(payload?.comment), commentsCount: count(payload?.commentsCount) };
}

export async function patchComment(id: string, content: string): Promise<CommentDto | null> {
  const payload = await api<Raw>(`/api/comments/${encodeURIComponent(id)}`, { method: 'PATCH', body: { content } });
  return readComment(payload?.comment);
}

export async function removeComment(id: string): Promise<number | null> {
  const payload = await api<Raw>(`/api/comments/${encodeURIComponent(id)}`, { method: 'DELETE' });
  return count(payload?.commentsCount);
}
