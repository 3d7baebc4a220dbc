/**
 * The posts API as the web app calls it. JSON calls go through `api()` (Bearer token,
 * one renewal on 401); uploads are multipart, so they use `uploadFile` below, which follows the
 * same token rules.
 */
import { SHELL_MESSAGES, type CreatePostBody, type ImageUpload, type VoiceUpload } from '@moodmap/core';
import { api } from '../../lib/api.ts';
import { parseAnswerLazy } from '../../lib/schemas.ts';
import type { PostDto } from './post-types.ts';

export type { CreatePostBody, ImageUpload, VoiceUpload };

/** One live post (`GET /api/posts/:id`, 404 once deleted or expired), with my like. */
export async function fetchPost(id: string, signal?: AbortSignal): Promise<PostDto | null> {
  return (
    await parseAnswerLazy(
      (s) => s.postResponseSchema,
      await api<unknown>(`/api/posts/${encodeURIComponent(id)}`, { signal }),
    )
  ).post;
}

/** The live cards among `ids` (`GET /api/posts/cards?ids=`), newest first: a 100 m group's list. */
export async function fetchCards(ids: readonly string[], signal?: AbortSignal): Promise<PostDto[]> {
  return (
    await parseAnswerLazy(
      (s) => s.postCardsResponseSchema,
      await api<unknown>(`/api/posts/cards?ids=${ids.map(encodeURIComponent).join(',')}`, { signal }),
    )
  ).posts;
}

/** The caller's live post, if any (the create page blocks while one exists). */
export async function fetchMyActivePost(signal?: AbortSignal): Promise<PostDto | null> {
  return (
    await parseAnswerLazy((s) => s.activePostResponseSchema, await api<unknown>('/api/posts/mine/active', { signal }))
  ).post;
}

export async function createPost(body: CreatePostBody): Promise<PostDto> {
  const payload = await api<unknown>('/api/posts', { method: 'POST', body });
  const { post } = await parseAnswerLazy((s) => s.postResponseSchema, payload, 'post_create_failed');
  return post;
}

export async function deletePost(id: string): Promise<void> {
  await api<unknown>(`/api/posts/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Whether a point is on land (islands included); the server decides again on create. */
export async function checkLand(latitude: number, longitude: number, signal?: AbortSignal): Promise<boolean> {
  const payload = await api<{ onLand?: unknown }>(`/api/geo/land?lat=${latitude}&lon=${longitude}`, {
    signal,
    auth: false,
  });
  return payload?.onLand === true;
}

export async function uploadPostImage(file: File, signal?: AbortSignal): Promise<ImageUpload> {
  const payload = await uploadFile<unknown>('/api/uploads/post-image', file, file.name, signal);
  return parseAnswerLazy((s) => s.imageUploadResponseSchema, payload, 'upload_failed');
}

export async function uploadVoice(blob: Blob, signal?: AbortSignal): Promise<VoiceUpload> {
  const payload = await uploadFile<unknown>('/api/uploads/voice', blob, 'voice.webm', signal);
  return parseAnswerLazy((s) => s.voiceUploadResponseSchema, payload, 'upload_failed');
}

/** One multipart upload (field `file`) with the access token; a 401 renews it once and retries. */
export async function uploadFile<T>(path: string, blob: Blob, filename: string, signal?: AbortSignal): Promise<T> {
  const form = new FormData();
  form.append('file', blob, filename);
  return api<T>(path, { method: 'POST', body: form, signal, failureMessage: SHELL_MESSAGES.upload_failed });
}
