import { useId } from 'react';
import { MESSAGES, PULSE_PRICE_LABEL, t } from '@moodmap/core';
import { SparkIcon } from '../../../ui/icons.tsx';
import { PurchaseControls } from '../../pulse/PurchaseControls.tsx';

/**
 * The pulse effect (docs/product.md, Pulse): a toggle when the user has at least one credit,
 * otherwise a purchase box (2,50 € per credit, card checkout).
 */
export function PulseOption({
  signedIn,
  credits,
  enabled,
  onToggle,
}: {
  signedIn: boolean;
  credits: number;
  enabled: boolean;
  onToggle: (on: boolean) => void;
}) {
  const id = useId();
  if (signedIn && credits >= 1) {
    return (
      <label
        htmlFor={id}
        data-testid="pulse-toggle"
        className={`flex cursor-pointer items-center gap-3 rounded-2xl p-3.5 ring-1 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${enabled ? 'bg-gradient-to-r from-brand-500/10 to-violet-brand/10 ring-brand-500/40' : 'bg-slate-50 ring-slate-200/70 dark:bg-white/[0.03] dark:ring-white/10'}`}
      >
        <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-brand-500 to-violet-brand text-white shadow-md shadow-brand-500/30">
          <SparkIcon size={20} />
        </span>
        <span className="min-w-0 flex-1">
          <span className="block text-sm font-semibold text-ink-900 dark:text-white">
            {MESSAGES.pulse_toggle_label}
          </span>
          <span className="block text-xs text-slate-500 dark:text-slate-400">
            {MESSAGES.pulse_toggle_hint} · {t('pulse_credits', { count: credits })}
          </span>
        </span>
        <input
          id={id}
          type="checkbox"
          role="switch"
          aria-checked={enabled}
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
  return (
    <div
      data-testid="pulse-purchase"
      className="flex flex-col gap-3 rounded-2xl bg-gradient-to-br from-brand-500/[0.08] to-violet-brand/[0.12] p-4 ring-1 ring-violet-brand/20 md:flex-row md:items-center"
    >
      <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-brand-500 to-violet-brand text-white shadow-md shadow-brand-500/30">
        <SparkIcon size={22} />
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2 text-sm font-bold text-ink-900 dark:text-white">
          {MESSAGES.pulse_toggle_label}
          <span className="text-brand-700 dark:text-brand-300" data-testid="pulse-price">
            {t('pulse_price_per_credit', { price: PULSE_PRICE_LABEL })}
          </span>
        </p>
        <p className="mt-0.5 text-xs leading-relaxed text-slate-600 dark:text-slate-300">
          {signedIn ? MESSAGES.pulse_purchase_text : MESSAGES.pulse_signed_out}
        </p>
      </div>
      {signedIn ? <PurchaseControls onCredited={() => onToggle(true)} /> : null}
    </div>
  );
}
