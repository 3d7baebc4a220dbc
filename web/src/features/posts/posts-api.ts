/**
 * The posts API as the web app calls it (issue 4). JSON calls go through `api()` (Bearer token,
 * one renewal on 401); uploads are multipart, so they use `uploadFile` below, which follows the
 * same token rules.
 */
import { MESSAGES, type Mood } from '@moodmap/core';
import { ApiError, api } from '../../lib/api.ts';
import { type PostDto, readPost } from './post-types.ts';

/** One live post (`GET /api/posts/:id`, 404 once deleted or expired), with my like. */
export async function fetchPost(id: string, signal?: AbortSignal): Promise<PostDto | null> {
  const payload = await api<{ post?: unknown }>(`/api/posts/${encodeURIComponent(id)}`, { signal });
  return readPost(payload?.post);
}

/** The caller's live post, if any (the create page blocks while one exists). */
export async function fetchMyActivePost(signal?: AbortSignal): Promise<PostDto | null> {
  const payload = await api<{ post?: unknown }>('/api/posts/mine/active', { signal });
  return readPost(payload?.post);
}

export interface CreatePostBody {
  category: Mood;
  content: string;
  latitude: number;
  longitude: number;
  imageUploadId?: string;
  audioUploadId?: string;
  usePulseEffect?: boolean;
}

export async function createPost(body: CreatePostBody): Promise<PostDto> {
  const payload = await api<{ post?: unknown }>('/api/posts', { method: 'POST', body });
  const post = readPost(payload?.post);
  if (!post) throw new ApiError(500, 'post_create_failed', MESSAGES.post_create_failed);
  return post;
}

export async function deletePost(id: string): Promise<void> {
  await api<unknown>(`/api/posts/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Whether a point is on land (islands included); the server decides again on create. */
export async function checkLand(latitude: number, longitude: number, signal?: AbortSignal): Promise<boolean> {
  const payload = await api<{ onLand?: unknown }>(`/api/geo/land?lat=${latitude}&lon=${longitude}`, { signal, auth: false });
  return payload?.onLand === true;
}

export interface ImageUpload {
  uploadId: string;
  url: string;
  thumbnailUrl: string | null;
}

export interface VoiceUpload {
  uploadId: string;
  url: string;
  duration: number;
}

export async function uploadPostImage(file: File, signal?: AbortSignal): Promise<ImageUpload> {
  const payload = await uploadFile<Record<string, unknown>>('/api/uploads/post-image', file, file.name, signal);
  if (typeof payload?.uploadId !== 'string') throw new ApiError(500, 'upload_failed', MESSAGES.upload_failed);
  return {
    uploadId: payload.uploadId,
    url: String(payload.url ?? ''),
    thumbnailUrl: typeof payload.thumbnailUrl === 'string' ? payload.thumbnailUrl : null,
  };
}

export async function uploadVoice(blob: Blob, signal?: AbortSignal): Promise<VoiceUpload> {
  const payload = await uploadFile<Record<string, unknown>>('/api/uploads/voice', blob, 'voice.webm', signal);
  if (typeof payload?.uploadId !== 'string') throw new ApiError(500, 'upload_failed', MESSAGES.upload_failed);
  return { uploadId: payload.uploadId, url: String(payload.url ?? ''), duration: Number(payload.duration ?? 0) };
}

/** One multipart upload (field `file`) with the access token; a 401 renews it once and retries. */
export async function uploadFile<T>(path: string, blob: Blob, filename: string, signal?: AbortSignal): Promise<T> {
  const form = new FormData();
  form.append('file', blob, filename);
  return api<T>(path, { method: 'POST', body: form, signal, failureMessage: MESSAGES.upload_failed });
}
