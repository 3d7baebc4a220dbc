import { useId } from 'react';
import { MESSAGES, POST_TEXT_MAX } from '@moodmap/core';
import { inputClass } from '../../../ui/Field.tsx';
import { AlertIcon } from '../../../ui/icons.tsx';
import { textLength, textWarnings, warningMessage } from './validation.ts';

/**
 * The message: 500 characters at most with a live counter, and the two warnings. A longer text
 * (pasted) is kept, not cut silently: the counter turns red and the too-long text shows until
 * it is shortened; the form refuses to send it meanwhile (validation.ts).
 */
export function MessageField({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  const id = useId();
  const counterId = useId();
  const length = textLength(value);
  const warnings = textWarnings(value);
  const near = length > POST_TEXT_MAX * 0.9;
  const over = length > POST_TEXT_MAX;
  const tone = over
    ? 'font-bold text-rose-600 dark:text-rose-400'
    : near
      ? 'text-amber-600 dark:text-amber-400'
      : 'text-slate-500 dark:text-slate-400';
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-semibold text-slate-700 dark:text-slate-300">
          {MESSAGES.create_message_label}
        </label>
        <span
          id={counterId}
          data-testid="create-counter"
          aria-live="polite"
          className={`text-xs font-medium tabular-nums ${tone}`}
        >
          {length}/{POST_TEXT_MAX}
        </span>
      </div>
      <textarea
        id={id}
        value={value}
        rows={4}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={over}
        placeholder={MESSAGES.create_message_placeholder}
        aria-describedby={counterId}
        data-testid="create-content"
        className={`${inputClass} min-h-28 resize-y leading-relaxed`}
      />
      {over ? (
        <p
          role="alert"
          data-testid="create-too-long"
          className="text-xs font-semibold text-rose-600 dark:text-rose-400"
        >
          {MESSAGES.content_too_long}
        </p>
      ) : null}
      {warnings.map((w) => (
        <p
          key={w}
          data-testid={`create-warning-${w}`}
          className="flex items-start gap-1.5 rounded-lg bg-amber-50 px-2.5 py-1.5 text-xs font-medium text-amber-800 dark:bg-amber-500/10 dark:text-amber-300"
        >
          <AlertIcon size={14} className="mt-px shrink-0" />
          {warningMessage(w)}
        </p>
      ))}
    </div>
  );
}
