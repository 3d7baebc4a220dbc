/**
 * The posts API as the web app calls it (issue 4). JSON calls go through `api()` (Bearer token,
 * one renewal on 401); uploads are multipart, so they use `uploadFile` below, which follows the
 * same token rules.
 */
import {
  MESSAGES, activePostResponseSchema, imageUploadResponseSchema, postResponseSchema,
  voiceUploadResponseSchema, type CreatePostBody, type ImageUpload, type VoiceUpload,
} from '@moodmap/core';
import { api } from '../../lib/api.ts';
import { type PostDto, parseAnswer } from './post-types.ts';

export type { CreatePostBody, ImageUpload, VoiceUpload };

/** One live post (`GET /api/posts/:id`, 404 once deleted or expired), with my like. */
export async function fetchPost(id: string, signal?: AbortSignal): Promise<PostDto | null> {
  return parseAnswer(postResponseSchema, await api<unknown>(`/api/posts/${encodeURIComponent(id)}`, { signal })).post;
}

/** The caller's live post, if any (the create page blocks while one exists). */
export async function fetchMyActivePost(signal?: AbortSignal): Promise<PostDto | null> {
  return parseAnswer(activePostResponseSchema, await api<unknown>('/api/posts/mine/active', { signal })).post;
}

export async function createPost(body: CreatePostBody): Promise<PostDto> {
  const payload = await api<unknown>('/api/posts', { method: 'POST', body });
  return parseAnswer(postResponseSchema, payload, 'post_create_failed').post;
}

export async function deletePost(id: string): Promise<void> {
  await api<unknown>(`/api/posts/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Whether a point is on land (islands included); the server decides again on create. */
export async function checkLand(latitude: number, longitude: number, signal?: AbortSignal): Promise<boolean> {
  const payload = await api<{ onLand?: unknown }>(`/api/geo/land?lat=${latitude}&lon=${longitude}`, { signal, auth: false });
  return payload?.onLand === true;
}

export async function uploadPostImage(file: File, signal?: AbortSignal): Promise<ImageUpload> {
  const payload = await uploadFile<unknown>('/api/uploads/post-image', file, file.name, signal);
  return parseAnswer(imageUploadResponseSchema, payload, 'upload_failed');
}

export async function uploadVoice(blob: Blob, signal?: AbortSignal): Promise<VoiceUpload> {
  const payload = await uploadFile<unknown>('/api/uploads/voice', blob, 'voice.webm', signal);
  return parseAnswer(voiceUploadResponseSchema, payload, 'upload_failed');
}

/** One multipart upload (field `file`) with the access token; a 401 renews it once and retries. */
export async function uploadFile<T>(path: string, blob: Blob, filename: string, signal?: AbortSignal): Promise<T> {
  const form = new FormData();
  form.append('file', blob, filename);
  return api<T>(path, { method: 'POST', body: form, signal, failureMessage: MESSAGES.upload_failed });
}
