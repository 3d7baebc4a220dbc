/**
 * What feature modules call: check + re-encode + store an upload, and delete a stored one.
 * posts (image, voice), profiles (avatar, old one deleted), messages (chat image).
 */
import type { MediaStorage } from '../../adapters/storage/types.ts';
import { checkVoiceMessage } from './audio.ts';
import { processImage, type ImageKind } from './images.ts';
import { mediaKey, thumbKey } from './upload.ts';

export interface StoredImage {
  key: string;
  url: string;
  width: number;
  height: number;
  /** Posts: the 256 px-wide thumbnail; avatars: the 128 px square. */
  thumb?: { key: string; url: string; width: number; height: number };
}

export interface StoredVoiceMessage {
  key: string;
  url: string;
  durationSeconds: number;
}

/** Magic number, pixel limit, re-encoding (EXIF/GPS gone), then the files into storage. */
export async function storeImage(storage: MediaStorage, buffer: Buffer, kind: ImageKind): Promise<StoredImage> {
  const image = await processImage(buffer, kind);
  const key = mediaKey(kind, image.main.ext);
  const stored: StoredImage = { key, url: storage.url(key), width: image.main.width, height: image.main.height };
  if (image.thumb) {
    const tk = thumbKey(key);
    await storage.put(tk, image.thumb.body, image.thumb.contentType);
    stored.thumb = { key: tk, url: storage.url(tk), width: image.thumb.width, height: image.thumb.height };
  }
  try {
    await storage.put(key, image.main.body, image.main.contentType);
  } catch (error) {
    if (stored.thumb) await storage.delete(stored.thumb.key).catch(() => {});
    throw error;
  }
  return stored;
}

/** WebM signature, 1000 B–5 MB, 0 < duration ≤ 60 s, then stored as sent (never re-encoded). */
export async function storeVoiceMessage(storage: MediaStorage, buffer: Buffer): Promise<StoredVoiceMessage> {
  const voice = await checkVoiceMessage(buffer);
  const key = mediaKey('audio', voice.ext);
  await storage.put(key, voice.body, voice.contentType);
  return { key, url: storage.url(key), durationSeconds: voice.durationSeconds };
}

/** Every key behind a stored media URL: the file and its thumbnail, if any. */
export function keysOfUrl(storage: MediaStorage, url: string | null | undefined): string[] {
  if (!url) return [];
  const key = storage.keyFromUrl(url);
  if (!key) return [];
  return key.endsWith('.webp') && !key.endsWith('-thumb.webp') ? [key, thumbKey(key)] : [key];
}

/** Deletes media by URL (expired post, replaced avatar); URLs from elsewhere are left alone. */
export async function deleteMediaUrls(storage: MediaStorage, urls: Array<string | null | undefined>): Promise<void> {
  const keys = urls.flatMap((url) => keysOfUrl(storage, url));
  await Promise.all(keys.map((key) => storage.delete(key)));
}
