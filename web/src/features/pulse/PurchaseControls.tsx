/**
 * Quantity picker (1, 5 or 10 credits at 2,50 € each, total in French format) and the 'Acheter'
 * button of the purchase box. Signed out: a French text asking to sign in instead.
 */
import { useId, useState } from 'react';
import { MESSAGES, PULSE_QUANTITIES, PULSE_UNIT_AMOUNT_CENTS, type PulseQuantity, euros, t } from '@moodmap/core';
import { Spinner } from '../../ui/Button.tsx';
import { useSessionStore } from '../auth/session-store.ts';
import { usePulsePurchase } from './use-pulse-purchase.ts';

export function PurchaseControls({ onCredited }: { onCredited?: () => void }) {
  const signedIn = useSessionStore((s) => s.user !== null);
  const [quantity, setQuantity] = useState<PulseQuantity>(5);
  const { buy, busy, error } = usePulsePurchase(onCredited);
  const name = useId();
  if (!signedIn)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="pulse-signed-out">
        {MESSAGES.pulse_signed_out}
      </p>
    );
  return (
    <div className="flex flex-col gap-2" data-testid="pulse-purchase-controls">
      <fieldset className="flex items-center gap-2">
        <legend className="sr-only">{MESSAGES.pulse_quantity_label}</legend>
        {PULSE_QUANTITIES.map((q) => (
          <label
            key={q}
            className={`cursor-pointer rounded-xl px-3 py-1.5 text-sm font-semibold ring-1 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${quantity === q ? 'bg-brand-500 text-white ring-brand-500' : 'bg-white text-ink-900 ring-slate-200 hover:ring-brand-500/50 dark:bg-white/5 dark:text-white dark:ring-white/15'}`}
          >
            <input
              type="radio"
              name={name}
              value={q}
              checked={quantity === q}
              onChange={() => setQuantity(q)}
              className="sr-only"
              data-testid={`pulse-quantity-${q}`}
            />
            {q}
          </label>
        ))}
        <span className="ml-1 text-sm font-bold text-ink-900 dark:text-white" data-testid="pulse-total">
          {t('pulse_total', { total: euros(PULSE_UNIT_AMOUNT_CENTS * quantity) })}
        </span>
      </fieldset>
      <button
        type="button"
        onClick={() => void buy(quantity)}
        disabled={busy}
        aria-busy={busy}
        data-testid="pulse-buy"
        className="inline-flex h-10 items-center justify-center gap-2 rounded-xl bg-ink-900 px-4 text-sm font-semibold text-white transition hover:bg-ink-700 disabled:opacity-70 dark:bg-white dark:text-ink-900 dark:hover:bg-slate-200"
      >
        {busy ? <Spinner className="size-4" /> : null}
        {busy ? MESSAGES.pulse_checkout_opening : MESSAGES.pulse_buy_short}
      </button>
      {error ? (
        <p role="alert" className="text-sm font-medium text-rose-600 dark:text-rose-400" data-testid="pulse-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
