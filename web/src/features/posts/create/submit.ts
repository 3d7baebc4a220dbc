/**
 * The create sequence: image upload → voice upload → create. Each upload is kept once
 * it succeeded, so a retry after a later failure does not send the same file twice; the form
 * itself keeps every field on failure.
 */
import { MESSAGES, type Mood } from '@moodmap/core';
import { ApiError } from '../../../lib/api.ts';
import type { PostDto } from '../post-types.ts';
import { createPost, uploadPostImage, uploadVoice } from '../posts-api.ts';

export interface SubmitInput {
  category: Mood;
  content: string;
  image: File | null;
  voice: Blob | null;
  location: { latitude: number; longitude: number };
  usePulseEffect: boolean;
  /** 'Position approximative': published at its ~1 km cell's point. */
  approximate?: boolean;
}

/** Uploads that already succeeded, by the file they were made from. */
export interface UploadMemo {
  image?: { file: File; uploadId: string };
  voice?: { blob: Blob; uploadId: string };
}

export type SubmitStep = 'image' | 'voice' | 'post';
export type SubmitResult = { ok: true; post: PostDto } | { ok: false; step: SubmitStep; message: string; code: string };

export interface SubmitDeps {
  uploadPostImage: typeof uploadPostImage;
  uploadVoice: typeof uploadVoice;
  createPost: typeof createPost;
}

const DEFAULT_DEPS: SubmitDeps = { uploadPostImage, uploadVoice, createPost };

function messageOf(error: unknown, fallback: string): { message: string; code: string } {
  if (error instanceof ApiError && error.status !== 0) return { message: error.message, code: error.code };
  return { message: fallback, code: error instanceof ApiError ? error.code : 'internal_error' };
}

export async function submitPost(
  input: SubmitInput,
  memo: UploadMemo,
  deps: SubmitDeps = DEFAULT_DEPS,
): Promise<SubmitResult> {
  if (input.image && memo.image?.file !== input.image) {
    try {
      memo.image = { file: input.image, uploadId: (await deps.uploadPostImage(input.image)).uploadId };
    } catch (error) {
      return { ok: false, step: 'image', ...messageOf(error, MESSAGES.upload_failed) };
    }
  }
  if (input.voice && memo.voice?.blob !== input.voice) {
    try {
      memo.voice = { blob: input.voice, uploadId: (await deps.uploadVoice(input.voice)).uploadId };
    } catch (error) {
      const { message, code } = messageOf(error, MESSAGES.upload_failed);
      return { ok: false, step: 'voice', code, message: `${MESSAGES.audio_upload_error_prefix} : ${message}` };
    }
  }
  try {
    const post = await deps.createPost({
      category: input.category,
      content: input.content.trim(),
      latitude: input.location.latitude,
      longitude: input.location.longitude,
      ...(input.image && memo.image ? { imageUploadId: memo.image.uploadId } : {}),
      ...(input.voice && memo.voice ? { audioUploadId: memo.voice.uploadId } : {}),
      ...(input.usePulseEffect ? { usePulseEffect: true } : {}),
      ...(input.approximate ? { approximate: true } : {}),
    });
    // An upload is claimed by the post: it cannot serve another one.
    delete memo.image;
    delete memo.voice;
    return { ok: true, post };
  } catch (error) {
    return { ok: false, step: 'post', ...messageOf(error, MESSAGES.post_create_failed) };
  }
}
