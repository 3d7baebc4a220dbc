import { useId } from 'react';
import { MESSAGES } from '@moodmap/core';
import { EyeOffIcon } from '../../../ui/icons.tsx';

/**
 * 'Position approximative' (docs/product.md, Posts): the post is published at its ~1 km cell's
 * point, never at the picked one. A switch, off by default; the create form remembers it per device.
 */
export function ApproximateOption({ enabled, onToggle }: { enabled: boolean; onToggle: (on: boolean) => void }) {
  const id = useId();
  return (
    <label
      htmlFor={id}
      data-testid="approximate-toggle"
      className={`flex cursor-pointer items-center gap-3 rounded-2xl p-3.5 ring-1 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${enabled ? 'bg-brand-500/10 ring-brand-500/40' : 'bg-slate-50 ring-slate-200/70 dark:bg-white/[0.03] dark:ring-white/10'}`}
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-slate-200 text-slate-700 dark:bg-ink-700 dark:text-slate-200">
        <EyeOffIcon size={20} />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block text-sm font-semibold text-ink-900 dark:text-white">{MESSAGES.post_approximate}</span>
        <span id={`${id}-hint`} className="block text-xs text-slate-600 dark:text-slate-300">
          {MESSAGES.create_approximate_hint}
        </span>
      </span>
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-checked={enabled}
        aria-describedby={`${id}-hint`}
        className="peer sr-only"
        checked={enabled}
        onChange={(e) => onToggle(e.target.checked)}
      />
      <span
        aria-hidden="true"
        className="relative h-7 w-12 shrink-0 rounded-full bg-slate-300 transition peer-checked:bg-brand-500 after:absolute after:top-1 after:left-1 after:size-5 after:rounded-full after:bg-white after:shadow after:transition peer-checked:after:translate-x-5 dark:bg-ink-600"
      />
    </label>
  );
}
