/** The audio player's error texts (docs/product.md, Texts and times), from what the browser reports. */
import { MESSAGES } from '@moodmap/core';

/** MediaError codes: 1 aborted, 2 network, 3 decode, 4 source not supported (also a 404 in Chromium). */
const MEDIA_ERRORS: Partial<Record<number, string>> = {
  1: MESSAGES.audio_playback_error,
  2: MESSAGES.audio_inaccessible,
  3: MESSAGES.audio_corrupt,
  4: MESSAGES.audio_unsupported,
};

export function mediaErrorMessage(code: number | null | undefined): string {
  return (code ? MEDIA_ERRORS[code] : undefined) ?? MESSAGES.audio_playback_error;
}

/** A rejected `play()`; null when it is no error (a pause interrupted the start). */
export function playRejectionMessage(error: unknown): string | null {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'AbortError') return null;
  if (name === 'NotAllowedError') return MESSAGES.audio_blocked;
  if (name === 'NotSupportedError') return MESSAGES.audio_unsupported;
  return MESSAGES.audio_playback_error;
}

/** A source the player accepts: same-origin paths, blob: recordings, http(s) URLs. */
export function isPlayableUrl(src: string | null | undefined): src is string {
  if (!src || !src.trim()) return false;
  try {
    const url = new URL(src, typeof window === 'undefined' ? 'http://localhost/' : window.location.href);
    return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'blob:';
  } catch {
    return false;
  }
}

/**
 * Chromium reports a missing file as "source not supported": a HEAD request tells a missing
 * (404, 410) or refused (401, 403) file from a format the browser cannot play.
 */
export async function probeAudioError(src: string, fallback: string): Promise<string> {
  if (src.startsWith('blob:')) return fallback;
  try {
    const response = await fetch(src, { method: 'HEAD', credentials: 'same-origin' });
    if (response.status === 404 || response.status === 410) return MESSAGES.audio_unavailable;
    if (response.status === 401 || response.status === 403) return MESSAGES.audio_inaccessible;
    return fallback;
  } catch {
    return MESSAGES.audio_inaccessible;
  }
}
