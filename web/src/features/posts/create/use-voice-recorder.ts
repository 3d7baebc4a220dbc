/**
 * The voice message recorder (docs/product.md, Posts):
 * idle → (requesting the microphone) → recording, with a timer, auto-stopping at 60 s →
 * recorded (playable; delete or re-record). A warning shows beyond 80 % of the maximum.
 * Microphone permission is 'unknown' until asked, 'denied' after a refusal (a retry is offered).
 * WebM/Opus, mono, 44.1 kHz requested, 64 kbit/s: a minute is about 480 KB, far under 5 MB.
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import {
  AUDIO_MAX_BYTES,
  AUDIO_MAX_SECONDS,
  AUDIO_MIN_BYTES,
  AUDIO_SAMPLE_RATE,
  AUDIO_WARNING_RATIO,
  MESSAGES,
} from '@moodmap/core';

export type RecorderStatus = 'idle' | 'requesting' | 'recording' | 'recorded';
export type MicPermission = 'unknown' | 'granted' | 'denied';

export interface Recording {
  blob: Blob;
  /** An object URL for the player; revoked when the recording is dropped. */
  url: string;
  /** Seconds, measured while recording (WebM from MediaRecorder carries no duration). */
  duration: number;
}

export const RECORDER_MIME = 'audio/webm;codecs=opus';
export const RECORDER_BITRATE = 64_000;
const TICK_MS = 200;

function pickMimeType(): string | undefined {
  const isSupported = (type: string) => {
    try {
      return typeof MediaRecorder.isTypeSupported !== 'function' || MediaRecorder.isTypeSupported(type);
    } catch {
      return false;
    }
  };
  if (isSupported(RECORDER_MIME)) return RECORDER_MIME;
  if (isSupported('audio/webm')) return 'audio/webm';
  return undefined;
}

function isPermissionError(error: unknown): boolean {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  return name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError';
}

/** Why a finished recording cannot be kept (no length, too small, too large), or null. */
function recordingProblem(duration: number, size: number): string | null {
  if (!(duration > 0)) return MESSAGES.audio_duration_zero;
  if (size < AUDIO_MIN_BYTES) return MESSAGES.audio_too_small;
  if (size > AUDIO_MAX_BYTES) return MESSAGES.audio_too_large;
  return null;
}

/** The microphone permission, read from the browser when it already knows the decision and kept in step. */
function useMicPermission(mounted: RefObject<boolean>) {
  const [permission, setPermission] = useState<MicPermission>('unknown');
  useEffect(() => {
    let status: PermissionStatus | null = null;
    const apply = () => {
      if (!status || !mounted.current) return;
      setPermission(status.state === 'granted' ? 'granted' : status.state === 'denied' ? 'denied' : 'unknown');
    };
    try {
      void navigator.permissions
        ?.query({ name: 'microphone' as PermissionName })
        .then((s) => {
          status = s;
          apply();
          s.onchange = apply;
        })
        .catch(() => undefined);
    } catch {
      // Browsers that do not know the 'microphone' permission name throw synchronously.
    }
    return () => {
      if (status) status.onchange = null;
    };
  }, [mounted]);
  return [permission, setPermission] as const;
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one recorder state machine; start, stop, discard and unmount share its refs and setters
export function useVoiceRecorder() {
  const [status, setStatus] = useState<RecorderStatus>('idle');
  const [elapsed, setElapsed] = useState(0);
  const [recording, setRecording] = useState<Recording | null>(null);
  const [error, setError] = useState<string | null>(null);

  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const startedAtRef = useRef(0);
  const durationRef = useRef(0);
  const tickRef = useRef<ReturnType<typeof setInterval> | null>(null);
  const limitRef = useRef<ReturnType<typeof setTimeout> | null>(null);
  const urlRef = useRef<string | null>(null);
  const mounted = useRef(true);
  const [permission, setPermission] = useMicPermission(mounted);

  const clearTimers = useCallback(() => {
    if (tickRef.current) clearInterval(tickRef.current);
    if (limitRef.current) clearTimeout(limitRef.current);
    tickRef.current = limitRef.current = null;
  }, []);

  const releaseStream = useCallback(() => {
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
  }, []);

  const dropRecording = useCallback(() => {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = null;
    setRecording(null);
  }, []);

  const stop = useCallback(() => {
    const recorder = recorderRef.current;
    if (!recorder || recorder.state === 'inactive') return;
    durationRef.current = Math.min(AUDIO_MAX_SECONDS, (Date.now() - startedAtRef.current) / 1000);
    clearTimers();
    setElapsed(durationRef.current);
    recorder.stop();
  }, [clearTimers]);

  const start = useCallback(async () => {
    if (status === 'recording' || status === 'requesting') return;
    setError(null);
    dropRecording();
    setElapsed(0);
    if (
      typeof navigator === 'undefined' ||
      !navigator.mediaDevices?.getUserMedia ||
      typeof MediaRecorder === 'undefined'
    ) {
      setError(MESSAGES.audio_record_error);
      return;
    }
    setStatus('requesting');
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        audio: { sampleRate: AUDIO_SAMPLE_RATE, channelCount: 1, echoCancellation: true, noiseSuppression: true },
      });
    } catch (err) {
      if (!mounted.current) return;
      setStatus('idle');
      if (isPermissionError(err)) {
        setPermission('denied');
        setError(MESSAGES.mic_permission_required);
      } else {
        setError(MESSAGES.audio_record_error);
      }
      return;
    }
    if (!mounted.current) {
      stream.getTracks().forEach((track) => track.stop());
      return;
    }
    setPermission('granted');
    streamRef.current = stream;

    let recorder: MediaRecorder;
    try {
      const mimeType = pickMimeType();
      recorder = new MediaRecorder(stream, { ...(mimeType ? { mimeType } : {}), audioBitsPerSecond: RECORDER_BITRATE });
    } catch {
      releaseStream();
      setStatus('idle');
      setError(MESSAGES.audio_record_error);
      return;
    }
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => {
      if (event.data && event.data.size > 0) chunks.push(event.data);
    };
    recorder.onerror = () => {
      clearTimers();
      releaseStream();
      recorderRef.current = null;
      if (!mounted.current) return;
      setStatus('idle');
      setError(MESSAGES.audio_record_error);
    };
    recorder.onstop = () => {
      releaseStream();
      recorderRef.current = null;
      if (!mounted.current) return;
      const duration = durationRef.current;
      const blob = new Blob(chunks, { type: 'audio/webm' });
      const problem = recordingProblem(duration, blob.size);
      if (problem) {
        setStatus('idle');
        setError(problem);
      } else {
        const url = URL.createObjectURL(blob);
        urlRef.current = url;
        setRecording({ blob, url, duration });
        setStatus('recorded');
      }
    };
    try {
      recorder.start(1000);
    } catch {
      releaseStream();
      setStatus('idle');
      setError(MESSAGES.audio_record_error);
      return;
    }
    recorderRef.current = recorder;
    startedAtRef.current = Date.now();
    durationRef.current = 0;
    setStatus('recording');
    tickRef.current = setInterval(() => {
      setElapsed(Math.min(AUDIO_MAX_SECONDS, (Date.now() - startedAtRef.current) / 1000));
    }, TICK_MS);
    limitRef.current = setTimeout(stop, AUDIO_MAX_SECONDS * 1000);
  }, [status, dropRecording, releaseStream, clearTimers, stop, setPermission]);

  /** Deletes the recording (or abandons the one in progress). */
  const discard = useCallback(() => {
    const recorder = recorderRef.current;
    if (recorder && recorder.state !== 'inactive') {
      recorder.onstop = null;
      recorder.ondataavailable = null;
      try {
        recorder.stop();
      } catch {
        // Already stopped.
      }
    }
    recorderRef.current = null;
    clearTimers();
    releaseStream();
    dropRecording();
    setElapsed(0);
    setError(null);
    setStatus('idle');
  }, [clearTimers, releaseStream, dropRecording]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      const recorder = recorderRef.current;
      if (recorder && recorder.state !== 'inactive') {
        try {
          recorder.stop();
        } catch {
          // Already stopped.
        }
      }
      if (tickRef.current) clearInterval(tickRef.current);
      if (limitRef.current) clearTimeout(limitRef.current);
      streamRef.current?.getTracks().forEach((track) => track.stop());
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    };
  }, []);

  const warning = status === 'recording' && elapsed > AUDIO_MAX_SECONDS * AUDIO_WARNING_RATIO;
  return { status, permission, elapsed, recording, error, warning, start, stop, discard };
}

export type VoiceRecorderApi = ReturnType<typeof useVoiceRecorder>;
