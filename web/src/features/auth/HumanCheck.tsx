import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { MESSAGES } from '@moodmap/core';
import { Spinner } from '../../ui/Button.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { RefreshIcon, ShieldIcon } from '../../ui/icons.tsx';
import { fetchChallenge, type Challenge } from './auth-api.ts';

export type ChallengeState =
  | { status: 'loading'; challenge: null }
  | { status: 'ready'; challenge: Challenge }
  | { status: 'error'; challenge: null };

/** The sign-up's human-check question, fetched on mount and on demand. */
export function useChallenge(): { state: ChallengeState; reload: () => void } {
  const [state, setState] = useState<ChallengeState>({ status: 'loading', challenge: null });
  const current = useRef<AbortController | null>(null);

  const reload = useCallback(() => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setState({ status: 'loading', challenge: null });
    fetchChallenge(controller.signal).then(
      (challenge) => {
        if (!controller.signal.aborted) setState({ status: 'ready', challenge });
      },
      () => {
        if (!controller.signal.aborted) setState({ status: 'error', challenge: null });
      },
    );
  }, []);

  useEffect(() => {
    reload();
    return () => current.current?.abort();
  }, [reload]);

  return { state, reload };
}

/** The question, its answer field and a way to get another question. */
export function HumanCheck({
  state,
  answer,
  onAnswer,
  onReload,
}: {
  state: ChallengeState;
  answer: string;
  onAnswer: (value: string) => void;
  onReload: () => void;
}) {
  const inputId = useId();
  return (
    <fieldset
      data-testid="human-check"
      className="rounded-2xl border border-brand-500/20 bg-gradient-to-br from-brand-500/[0.06] to-violet-brand/[0.06] px-4 pt-3 pb-4 dark:border-white/10"
    >
      <legend className="sr-only">{MESSAGES.human_check_title}</legend>
      <div className="mb-2 flex items-center justify-between gap-2">
        <span
          aria-hidden="true"
          className="inline-flex items-center gap-1.5 text-xs font-semibold tracking-wide whitespace-nowrap text-brand-700 uppercase dark:text-brand-300"
        >
          <ShieldIcon size={15} />
          {MESSAGES.human_check_title}
        </span>
        <button
          type="button"
          onClick={onReload}
          disabled={state.status === 'loading'}
          aria-label={MESSAGES.human_check_new}
          title={MESSAGES.human_check_new}
          className="-mr-1.5 inline-flex shrink-0 items-center gap-1 rounded-lg px-1.5 py-1 text-xs font-semibold whitespace-nowrap text-slate-500 transition hover:bg-white/70 hover:text-ink-900 disabled:opacity-50 dark:text-slate-400 dark:hover:bg-white/10 dark:hover:text-white"
        >
          <RefreshIcon size={14} />
          {/* On a phone the icon alone fits beside the title. */}
          <span className="max-[420px]:sr-only">{MESSAGES.human_check_new}</span>
        </button>
      </div>
      {state.status === 'ready' ? (
        <>
          <label
            htmlFor={inputId}
            data-testid="challenge-question"
            className="mb-2 block text-[15px] font-semibold text-ink-900 dark:text-white"
          >
            {state.challenge.question}
          </label>
          <input
            id={inputId}
            className={inputClass}
            value={answer}
            onChange={(e) => onAnswer(e.target.value)}
            placeholder={MESSAGES.human_check_placeholder}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={100}
          />
        </>
      ) : state.status === 'loading' ? (
        <p className="flex items-center gap-2 py-2 text-sm text-slate-500 dark:text-slate-400" role="status">
          <Spinner /> {MESSAGES.loading}
        </p>
      ) : (
        <p className="py-2 text-sm text-rose-600 dark:text-rose-400" role="alert">
          {MESSAGES.internal_error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * Hidden trap fields: out of sight and out of the tab order, so only a
 * script filling every input fills them.
 */
export function Honeypots({
  values,
  onChange,
}: {
  values: { website: string; fax: string };
  onChange: (name: 'website' | 'fax', value: string) => void;
}) {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute -left-[9999px] h-px w-px overflow-hidden opacity-0">
      <input
        type="text"
        name="website"
        tabIndex={-1}
        autoComplete="off"
        value={values.website}
        onChange={(e) => onChange('website', e.target.value)}
      />
      <input
        type="text"
        name="fax"
        tabIndex={-1}
        autoComplete="off"
        value={values.fax}
        onChange={(e) => onChange('fax', e.target.value)}
      />
    </div>
  );
}
