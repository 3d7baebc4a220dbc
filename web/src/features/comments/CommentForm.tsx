import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { COMMENT_TEXT_MAX, MESSAGES } from '@moodmap/core';

/** Whether a comment can be sent: non-blank and at most 500 characters (the server checks again). */
export function isCommentValid(text: string): boolean {
  return text.trim().length > 0 && text.length <= COMMENT_TEXT_MAX;
}

/**
 * The comment text box with its counter, for a new comment and for an edit. Enter sends,
 * Shift+Enter starts a new line, Escape cancels an edit.
 */
export function CommentForm({
  initial = '',
  submitLabel,
  onSubmit,
  onCancel,
  autoFocus = false,
  testId,
}: {
  initial?: string;
  submitLabel: string;
  /** Resolves true when the server took the text; a new comment's text comes back otherwise. */
  onSubmit: (text: string) => Promise<boolean>;
  onCancel?: () => void;
  autoFocus?: boolean;
  testId: string;
}) {
  const [text, setText] = useState(initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  const counterId = useId();
  const valid = isCommentValid(text);
  const over = text.length > COMMENT_TEXT_MAX;

  useEffect(() => {
    if (!autoFocus) return;
    const el = ref.current;
    el?.focus({ preventScroll: true });
    el?.setSelectionRange(el.value.length, el.value.length);
  }, [autoFocus]);

  // Grows with the text, up to about five lines.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 120)}px`;
  }, [text]);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!valid) return;
    const sent = text;
    // Optimistic: a new comment shows in the list at once; its text comes back if it fails.
    if (!onCancel) setText('');
    const taken = await onSubmit(sent);
    if (!taken && !onCancel) setText((current) => (current === '' ? sent : current));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape' && onCancel) {
      // Cancels the edit only; the popup stays open.
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  };

  return (
    <form onSubmit={submit} className="space-y-1.5" data-testid={testId}>
      <textarea
        ref={ref}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        rows={1}
        aria-label={MESSAGES.comment_label}
        aria-describedby={counterId}
        aria-invalid={over || undefined}
        placeholder={MESSAGES.comment_placeholder}
        data-testid={`${testId}-input`}
        className={`block max-h-30 min-h-10 w-full resize-none rounded-xl border bg-white px-3 py-2 text-sm leading-snug text-ink-900 outline-none transition placeholder:text-slate-400 focus:ring-4 dark:bg-ink-900 dark:text-slate-100 dark:placeholder:text-slate-500 ${
          over
            ? 'border-rose-400 focus:border-rose-500 focus:ring-rose-500/15'
            : 'border-slate-200 focus:border-brand-500 focus:ring-brand-500/15 dark:border-white/10'
        }`}
      />
      <div className="flex items-center justify-between gap-2">
        <span
          id={counterId}
          data-testid={`${testId}-counter`}
          className={`text-[11px] tabular-nums ${over ? 'font-semibold text-rose-600 dark:text-rose-300' : 'text-slate-500 dark:text-slate-400'}`}
        >
          {text.length}/{COMMENT_TEXT_MAX}
        </span>
        <div className="flex items-center gap-1.5">
          {onCancel ? (
            <button
              type="button"
              onClick={onCancel}
              className="h-8 rounded-lg px-2.5 text-xs font-semibold text-slate-600 hover:bg-slate-200/70 dark:text-slate-300 dark:hover:bg-white/10"
            >
              {MESSAGES.cancel}
            </button>
          ) : null}
          <button
            type="submit"
            disabled={!valid}
            data-testid={`${testId}-submit`}
            className="inline-flex h-8 items-center gap-1.5 rounded-lg bg-brand-500 px-3 text-xs font-semibold text-white shadow-sm transition hover:bg-brand-600 disabled:bg-slate-200 disabled:text-slate-400 disabled:shadow-none dark:disabled:bg-ink-700 dark:disabled:text-slate-500"
          >
            {submitLabel}
          </button>
        </div>
      </div>
    </form>
  );
}
