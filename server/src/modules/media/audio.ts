/**
 * Voice messages: WebM only (what MediaRecorder records, Opus
 * inside), 1000 B to 5 MB, a duration above zero and at most 60 s.
 *
 * The duration is Info/Duration when the file has one, else the span of the blocks (both read
 * by one pass of ebml.ts): Chrome's recordings have no Duration element. A declared Duration
 * cannot hide a longer recording: the blocks' span is checked against the limit as well.
 */
import { AUDIO_MAX_BYTES, AUDIO_MAX_SECONDS, AUDIO_MIN_BYTES } from '@moodmap/core';
import { appError } from '../../errors.ts';
import { EbmlError, readDocType, scanWebm } from './ebml.ts';

/**
 * The recorder auto-stops at 60 s from a browser timer; the last Opus frames can end a few
 * tens of milliseconds later. A recording is refused beyond 60 s + this slack.
 */
export const AUDIO_DURATION_SLACK_SECONDS = 1;

export const VOICE_CONTENT_TYPE = 'audio/webm';

export interface VoiceMessage {
  body: Buffer;
  contentType: typeof VOICE_CONTENT_TYPE;
  ext: 'webm';
  /** Seconds, rounded to the millisecond: what the post stores as `audio_duration`. */
  durationSeconds: number;
  /** Where the duration came from. */
  durationSource: 'declared' | 'scanned';
  codec: string | null;
}

export async function checkVoiceMessage(buffer: Buffer): Promise<VoiceMessage> {
  if (buffer.byteLength > AUDIO_MAX_BYTES) throw appError(413, 'audio_too_large');
  if (buffer.byteLength < AUDIO_MIN_BYTES) throw appError(400, 'audio_too_small');

  let docType: string;
  try {
    docType = readDocType(buffer).docType;
  } catch (error) {
    if (error instanceof EbmlError) throw appError(400, 'audio_unsupported');
    throw error;
  }
  if (docType !== 'webm') throw appError(400, 'audio_unsupported');

  let scan: ReturnType<typeof scanWebm>;
  try {
    scan = scanWebm(buffer);
  } catch (error) {
    if (error instanceof EbmlError) throw appError(400, 'audio_corrupt');
    throw error;
  }
  // A voice message is sound only: at least one audio track, and no video.
  const audio = scan.tracks.find((t) => t.type === 2 || (t.type === null && t.codecId?.startsWith('A_')));
  const video = scan.tracks.some((t) => t.type === 1 || t.codecId?.startsWith('V_'));
  if (!audio || video) throw appError(400, 'audio_unsupported');

  const declared = scan.declaredSeconds;
  const useDeclared = declared !== null && declared > 0;
  const duration = useDeclared ? declared : scan.scannedSeconds;
  if (!(duration > 0)) throw appError(400, 'audio_duration_zero');
  if (Math.max(duration, scan.scannedSeconds) > AUDIO_MAX_SECONDS + AUDIO_DURATION_SLACK_SECONDS) {
    throw appError(400, 'audio_too_long');
  }
  return {
    body: buffer,
    contentType: VOICE_CONTENT_TYPE,
    ext: 'webm',
    durationSeconds: Math.round(duration * 1000) / 1000,
    durationSource: useDeclared ? 'declared' : 'scanned',
    codec: audio.codecId,
  };
}
