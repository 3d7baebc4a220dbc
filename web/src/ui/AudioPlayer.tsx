import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { AUDIO_LOAD_TIMEOUT_MS, MESSAGES, playerTime } from '@moodmap/core';
import { isPlayableUrl, mediaErrorMessage, playRejectionMessage, probeAudioError } from './audio-errors.ts';
import { Spinner } from './Button.tsx';
import { AlertIcon, PauseIcon, PlayIcon, RetryIcon } from './icons.tsx';
// A file of its own, not inlined as a data: URL, which the CSP's media-src refuses.
import noTranscriptCaptions from './voice-no-transcript.vtt?url&no-inline';

export type PlayerState = 'idle' | 'loading' | 'playing' | 'paused' | 'error';

/** The loading deadline: `onSlow` runs once loading has taken AUDIO_LOAD_TIMEOUT_MS; cleared on unmount. */
function useLoadTimer() {
  const timeoutRef = useRef<ReturnType<typeof setTimeout> | null>(null);

  const clearLoadTimer = useCallback(() => {
    if (timeoutRef.current) clearTimeout(timeoutRef.current);
    timeoutRef.current = null;
  }, []);

  const armLoadTimer = useCallback(
    (onSlow: () => void) => {
      clearLoadTimer();
      timeoutRef.current = setTimeout(onSlow, AUDIO_LOAD_TIMEOUT_MS);
    },
    [clearLoadTimer],
  );

  useEffect(() => clearLoadTimer, [clearLoadTimer]);

  return { clearLoadTimer, armLoadTimer };
}

/** Where playback is and how long the file lasts: the element's length once known, else the server's hint. */
function usePosition(audioRef: RefObject<HTMLAudioElement | null>, durationHint: number | null) {
  const [current, setCurrent] = useState(0);
  const [mediaDuration, setMediaDuration] = useState<number | null>(null);
  const duration = mediaDuration ?? (durationHint && durationHint > 0 ? durationHint : null);

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

  const followTime = () => setCurrent(audioRef.current?.currentTime ?? 0);

  /** At the end: back to the start, the length read again (the whole file has been read). */
  const rewind = () => {
    const audio = audioRef.current;
    if (audio) {
      readDuration();
      audio.currentTime = 0;
    }
    setCurrent(0);
  };

  const reset = useCallback(() => {
    setCurrent(0);
    setMediaDuration(null);
  }, []);

  return { current, duration, readDuration, followTime, seek, rewind, reset };
}

type Position = ReturnType<typeof usePosition>;

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
  const { clearLoadTimer, armLoadTimer } = useLoadTimer();
  const [state, setState] = useState<PlayerState>('idle');
  const [error, setError] = useState<string | null>(null);
  const position = usePosition(audioRef, durationHint);
  const valid = isPlayableUrl(src);

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
    position.reset();
  }, [src, clearLoadTimer, position.reset]);

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
      armLoadTimer(() => fail(MESSAGES.audio_slow));
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
  }, [valid, fail, armLoadTimer]);

  const toggle = () => {
    if (state === 'playing' || state === 'loading') {
      clearLoadTimer();
      audioRef.current?.pause();
      setState(position.current > 0 ? 'paused' : 'idle');
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

  return (
    <div
      className={`flex items-center gap-3 rounded-2xl bg-slate-100 px-2.5 py-2 dark:bg-ink-800 ${className}`}
      data-testid={testId}
      data-state={state}
    >
      <PlayButton state={state} onClick={toggle} />
      <PlayerTrack state={state} error={error} position={position} testId={testId} />
      <audio
        ref={audioRef}
        src={valid ? src : undefined}
        preload="none"
        onLoadedMetadata={position.readDuration}
        onDurationChange={position.readDuration}
        onTimeUpdate={position.followTime}
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
          position.rewind();
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

/** Play, pause, or retry after an error; a spinner while loading. */
function PlayButton({ state, onClick }: { state: PlayerState; onClick: () => void }) {
  const pausable = state === 'playing' || state === 'loading';
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={state === 'error' ? MESSAGES.audio_retry : pausable ? MESSAGES.audio_pause : MESSAGES.audio_play}
      className="flex size-10 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-violet-brand text-white shadow-md shadow-brand-500/30 transition hover:brightness-110 active:scale-95"
    >
      {state === 'loading' ? (
        <Spinner className="size-4" />
      ) : state === 'error' ? (
        <RetryIcon size={18} />
      ) : state === 'playing' ? (
        <PauseIcon size={18} />
      ) : (
        <PlayIcon size={18} />
      )}
    </button>
  );
}

/** Beside the button: what went wrong, or the timeline. */
function PlayerTrack({
  state,
  error,
  position: { current, duration, seek },
  testId,
}: {
  state: PlayerState;
  error: string | null;
  position: Pick<Position, 'current' | 'duration' | 'seek'>;
  testId: string;
}) {
  return (
    <div className="min-w-0 flex-1">
      {state === 'error' && error ? (
        <p role="alert" className="flex items-center gap-1.5 text-xs font-medium text-rose-600 dark:text-rose-300">
          <AlertIcon size={14} className="shrink-0" />
          <span>{error}</span>
        </p>
      ) : (
        <PlayerTimeline
          current={current}
          duration={duration}
          disabled={!duration || state === 'idle'}
          onSeek={seek}
          testId={testId}
        />
      )}
    </div>
  );
}

/** The progress bar (an invisible range input over it seeks) and the times, m:ss. */
function PlayerTimeline({
  current,
  duration,
  disabled,
  onSeek,
  testId,
}: {
  current: number;
  duration: number | null;
  disabled: boolean;
  onSeek: (seconds: number) => void;
  testId: string;
}) {
  const progress = duration ? Math.min(100, (current / duration) * 100) : 0;
  return (
    <>
      <div className="relative h-1.5 rounded-full bg-slate-300/70 dark:bg-white/15">
        <div className="absolute inset-y-0 left-0 rounded-full bg-brand-500" style={{ width: `${progress}%` }} />
        <input
          type="range"
          min={0}
          max={duration ?? 0}
          step={0.1}
          value={Math.min(current, duration ?? 0)}
          onChange={(e) => onSeek(Number(e.target.value))}
          disabled={disabled}
          aria-label={MESSAGES.audio_position}
          className="absolute inset-0 h-full w-full cursor-pointer opacity-0 disabled:cursor-default"
        />
      </div>
      <p className="mt-1 flex justify-between text-[11px] font-medium text-slate-500 tabular-nums dark:text-slate-400">
        <span data-testid={`${testId}-current`}>{playerTime(current)}</span>
        <span data-testid={`${testId}-duration`}>{playerTime(duration ?? 0)}</span>
      </p>
    </>
  );
}
