import { AUDIO_MAX_SECONDS, MESSAGES, playerTime, t } from '@moodmap/core';
import { AudioPlayer } from '../../../ui/AudioPlayer.tsx';
import { Spinner } from '../../../ui/Button.tsx';
import { AlertIcon, MicIcon, RetryIcon, StopIcon, TrashIcon } from '../../../ui/icons.tsx';
import type { VoiceRecorderApi } from './use-voice-recorder.ts';

const SMALL_BUTTON =
  'inline-flex h-9 items-center gap-1.5 rounded-xl px-3 text-xs font-semibold transition disabled:opacity-50';

/** The voice message block of the create page; the state lives in `useVoiceRecorder`. */
export function VoiceRecorder({ recorder }: { recorder: VoiceRecorderApi }) {
  const { status, permission, elapsed, recording, error, warning, start, stop, discard } = recorder;
  const remaining = Math.max(0, Math.ceil(AUDIO_MAX_SECONDS - elapsed));
  const progress = Math.min(100, (elapsed / AUDIO_MAX_SECONDS) * 100);

  return (
    <div className="space-y-1.5" data-testid="voice-recorder" data-status={status} data-permission={permission}>
      <span className="block text-sm font-semibold text-slate-700 dark:text-slate-300">
        {MESSAGES.create_voice_label}
      </span>
      <div className="flex min-h-36 flex-col justify-center gap-3 rounded-2xl bg-slate-50 p-3 ring-1 ring-slate-200/70 dark:bg-white/[0.03] dark:ring-white/10">
        {status === 'recording' ? (
          <>
            <div className="flex items-center gap-3">
              <span className="relative flex size-3 shrink-0" aria-hidden="true">
                <span className="absolute inline-flex size-full animate-ping rounded-full bg-rose-500/70" />
                <span className="relative inline-flex size-3 rounded-full bg-rose-500" />
              </span>
              <span className="text-sm font-semibold text-ink-900 dark:text-white">{MESSAGES.voice_recording}</span>
              <span
                className="ml-auto font-mono text-sm font-semibold text-ink-900 tabular-nums dark:text-white"
                data-testid="voice-timer"
              >
                {playerTime(elapsed)} / {playerTime(AUDIO_MAX_SECONDS)}
              </span>
            </div>
            <div className="h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-white/10">
              <div
                className={`h-full rounded-full transition-[width] ${warning ? 'bg-amber-500' : 'bg-rose-500'}`}
                style={{ width: `${progress}%` }}
              />
            </div>
            {warning ? (
              <p
                data-testid="voice-warning"
                className="flex items-center gap-1.5 text-xs font-medium text-amber-700 dark:text-amber-300"
              >
                <AlertIcon size={14} className="shrink-0" />
                {t('voice_warning', { seconds: remaining })}
              </p>
            ) : null}
            <div className="flex gap-2">
              <button
                type="button"
                onClick={stop}
                data-testid="voice-stop"
                className={`${SMALL_BUTTON} bg-rose-500 text-white hover:bg-rose-600`}
              >
                <StopIcon size={14} /> {MESSAGES.voice_stop}
              </button>
              <button
                type="button"
                onClick={discard}
                className={`${SMALL_BUTTON} text-slate-600 hover:bg-slate-200/70 dark:text-slate-300 dark:hover:bg-white/10`}
              >
                {MESSAGES.cancel}
              </button>
            </div>
          </>
        ) : status === 'recorded' && recording ? (
          <>
            <AudioPlayer
              src={recording.url}
              durationHint={recording.duration}
              testId="voice-player"
              className="bg-white dark:bg-ink-800"
            />
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                onClick={discard}
                data-testid="voice-delete"
                className={`${SMALL_BUTTON} text-rose-600 hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-rose-500/10`}
              >
                <TrashIcon size={15} /> {MESSAGES.post_delete}
              </button>
              <button
                type="button"
                onClick={() => void start()}
                data-testid="voice-rerecord"
                className={`${SMALL_BUTTON} text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-white/5`}
              >
                <RetryIcon size={15} /> {MESSAGES.voice_rerecord}
              </button>
            </div>
          </>
        ) : (
          <div className="flex flex-col items-center gap-2 text-center">
            <button
              type="button"
              onClick={() => void start()}
              disabled={status === 'requesting'}
              data-testid="voice-record"
              aria-label={permission === 'denied' ? MESSAGES.voice_retry : MESSAGES.voice_record}
              className="flex size-14 items-center justify-center rounded-full bg-gradient-to-br from-rose-500 to-pink-500 text-white shadow-lg shadow-rose-500/30 transition hover:scale-105 active:scale-95 disabled:opacity-60"
            >
              {status === 'requesting' ? (
                <Spinner className="size-5" />
              ) : permission === 'denied' ? (
                <RetryIcon size={24} />
              ) : (
                <MicIcon size={24} />
              )}
            </button>
            <span className="text-xs text-slate-500 dark:text-slate-400">
              {permission === 'denied' ? MESSAGES.voice_retry : t('voice_hint', { seconds: AUDIO_MAX_SECONDS })}
            </span>
          </div>
        )}
        {error ? (
          <p role="alert" data-testid="voice-error" className="text-xs font-medium text-rose-600 dark:text-rose-300">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
