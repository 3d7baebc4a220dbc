import { useCallback, useEffect, useRef, useState } from 'react';
import { AUDIO_LOAD_TIMEOUT_MS, MESSAGES, playerTime } from '@moodmap/core';
import { isPlayableUrl, mediaErrorMessage, playRejectionMessage, probeAudioError } from './audio-errors.ts';
import { Spinner } from './Button.tsx';
import { AlertIcon, PauseIcon, PlayIcon, RetryIcon } from './icons.tsx';
// A file of its own, not inlined as a data: URL, which the CSP's media-src refuses.
import noTranscriptCaptions from './voice-no-transcript.vtt?url&no-inline';

export type PlayerState = 'idle' | 'loading' | 'playing' | 'paused' | 'error';

/**
 * The audio player: loading, playing, paused, error; back to the start
 * at the end. Loading that takes more than 5 s stops with 'Chargement audio trop lent'. Times are
 * m:ss. Nothing is downloaded before the first press (preload none): a map full of voice posts
 * costs no bandwidth.
 */
export function AudioPlayer({
  src,
  durationHint = null,
  className = '',
  testId = 'audio-player',
}: {
  src: string | null | undefined;
  /** Seconds, from the server: MediaRecorder WebM files carry no duration until fully read. */
  durationHint?: number | null;
  className?: string;
  testId?: string;
}) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const timeoutRef = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [state, setState] = useState<PlayerState>('idle');
  const [error, setError] = useState<string | null>(null);
  const [current, setCurrent] = useState(0);
  const [mediaDuration, setMediaDuration] = useState<number | null>(null);
  const valid = isPlayableUrl(src);
  const duration = mediaDuration ?? (durationHint && durationHint > 0 ? durationHint : null);

  const clearLoadTimer = useCallback(() => {
    if (timeoutRef.current) clearTimeout(timeoutRef.current);
    timeoutRef.current = null;
  }, []);

  const fail = useCallback(
    (message: string) => {
      clearLoadTimer();
      audioRef.current?.pause();
      setError(message);
      setState('error');
    },
    [clearLoadTimer],
  );

  // A new source starts over.
  useEffect(() => {
    clearLoadTimer();
    setState('idle');
    setError(null);
    setCurrent(0);
    setMediaDuration(null);
  }, [src, clearLoadTimer]);

  useEffect(() => clearLoadTimer, [clearLoadTimer]);

  const play = useCallback(async () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (!valid) {
      fail(MESSAGES.audio_url_invalid);
      return;
    }
    setError(null);
    if (audio.readyState < 3) {
      setState('loading');
      clearLoadTimer();
      timeoutRef.current = setTimeout(() => fail(MESSAGES.audio_slow), AUDIO_LOAD_TIMEOUT_MS);
    }
    try {
      await audio.play();
    } catch (err) {
      const message = playRejectionMessage(err);
      if (message === null) return;
      fail(
        message === MESSAGES.audio_unsupported
          ? await probeAudioError(audio.currentSrc || audio.src, message)
          : message,
      );
    }
  }, [valid, fail, clearLoadTimer]);

  const toggle = () => {
    if (state === 'playing' || state === 'loading') {
      clearLoadTimer();
      audioRef.current?.pause();
      setState(current > 0 ? 'paused' : 'idle');
      return;
    }
    if (state === 'error') {
      // Retry from scratch: a reload clears the element's error.
      audioRef.current?.load();
    }
    void play();
  };

  const onMediaError = async () => {
    const audio = audioRef.current;
    if (!audio || state === 'idle') return;
    const message = mediaErrorMessage(audio.error?.code);
    fail(audio.error?.code === 4 ? await probeAudioError(audio.currentSrc || audio.src, message) : message);
  };

  const readDuration = () => {
    const d = audioRef.current?.duration;
    if (d !== undefined && Number.isFinite(d) && d > 0) setMediaDuration(d);
  };

  const seek = (value: number) => {
    const audio = audioRef.current;
    if (!audio || !duration) return;
    try {
      audio.currentTime = value;
      setCurrent(value);
    } catch {
      // Not seekable yet: ignored.
    }
  };

  const playing = state === 'playing';
  const progress = duration ? Math.min(100, (current / duration) * 100) : 0;
  const label = playing || state === 'loading' ? 'Pause' : 'Lire';

  return (
    <div
      className={`flex items-center gap-3 rounded-2xl bg-slate-100 px-2.5 py-2 dark:bg-ink-800 ${className}`}
      data-testid={testId}
      data-state={state}
    >
      <button
        type="button"
        onClick={toggle}
        aria-label={
          state === 'error' ? MESSAGES.audio_retry : label === 'Pause' ? MESSAGES.audio_pause : MESSAGES.audio_play
        }
        className="flex size-10 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-violet-brand text-white shadow-md shadow-brand-500/30 transition hover:brightness-110 active:scale-95"
      >
        {state === 'loading' ? (
          <Spinner className="size-4" />
        ) : state === 'error' ? (
          <RetryIcon size={18} />
        ) : playing ? (
          <PauseIcon size={18} />
        ) : (
          <PlayIcon size={18} />
        )}
      </button>
      <div className="min-w-0 flex-1">
        {state === 'error' && error ? (
          <p role="alert" className="flex items-center gap-1.5 text-xs font-medium text-rose-600 dark:text-rose-300">
            <AlertIcon size={14} className="shrink-0" />
            <span>{error}</span>
          </p>
        ) : (
          <>
            <div className="relative h-1.5 rounded-full bg-slate-300/70 dark:bg-white/15">
              <div className="absolute inset-y-0 left-0 rounded-full bg-brand-500" style={{ width: `${progress}%` }} />
              <input
                type="range"
                min={0}
                max={duration ?? 0}
                step={0.1}
                value={Math.min(current, duration ?? 0)}
                onChange={(e) => seek(Number(e.target.value))}
                disabled={!duration || state === 'idle'}
                aria-label={MESSAGES.audio_position}
                className="absolute inset-0 h-full w-full cursor-pointer opacity-0 disabled:cursor-default"
              />
            </div>
            <p className="mt-1 flex justify-between text-[11px] font-medium text-slate-500 tabular-nums dark:text-slate-400">
              <span data-testid={`${testId}-current`}>{playerTime(current)}</span>
              <span data-testid={`${testId}-duration`}>{playerTime(duration ?? 0)}</span>
            </p>
          </>
        )}
      </div>
      <audio
        ref={audioRef}
        src={valid ? src : undefined}
        preload="none"
        onLoadedMetadata={readDuration}
        onDurationChange={readDuration}
        onTimeUpdate={() => setCurrent(audioRef.current?.currentTime ?? 0)}
        onPlaying={() => {
          clearLoadTimer();
          setState('playing');
        }}
        onWaiting={() => {
          if (state === 'playing') setState('loading');
        }}
        onPause={() => {
          const audio = audioRef.current;
          if (audio && !audio.ended) setState((s) => (s === 'error' || s === 'idle' ? s : 'paused'));
        }}
        onEnded={() => {
          const audio = audioRef.current;
          if (audio) {
            readDuration();
            audio.currentTime = 0;
          }
          setCurrent(0);
          setState('idle');
        }}
        onError={() => void onMediaError()}
      >
        {/* Voice messages are recorded in the browser and never transcribed: their captions can only say so. */}
        <track kind="captions" src={noTranscriptCaptions} srcLang="fr" label="Français" default />
      </audio>
    </div>
  );
}
