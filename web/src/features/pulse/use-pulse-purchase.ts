/** The purchase flow as a React hook: busy state, error text, toast and balance refresh. */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { MESSAGES, type PulseQuantity, tn } from '@moodmap/core';
import { toast } from '../../ui/toasts/toast-store.ts';
import { useSessionStore } from '../auth/session-store.ts';
import { type PurchaseOutcome, browserDeps, runPurchase } from './checkout-flow.ts';
import { PULSE_PURCHASES_KEY } from './pulse-api.ts';

/** Shows an outcome (here, or on the page the mobile checkout comes back to) and refreshes the balance. */
export async function settleOutcome(outcome: PurchaseOutcome, refresh: () => Promise<void>): Promise<void> {
  if (outcome.kind === 'credited') {
    await refresh();
    toast.success(tn('pulse_purchase_success', outcome.added));
  } else if (outcome.kind === 'unchanged') {
    await refresh();
    toast.info(MESSAGES.pulse_purchase_pending);
  }
}

export function usePulsePurchase(onCredited?: () => void) {
  const queryClient = useQueryClient();
  const location = useLocation();
  const reloadUser = useSessionStore((s) => s.reloadUser);
  const credits = useSessionStore((s) => s.user?.pulseCredits ?? 0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const refresh = async () => {
    await Promise.all([reloadUser(), queryClient.invalidateQueries({ queryKey: PULSE_PURCHASES_KEY })]);
  };

  const buy = async (quantity: PulseQuantity) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const outcome = await runPurchase(quantity, credits, browserDeps(`${location.pathname}${location.search}`));
      if (outcome.kind === 'error') setError(outcome.message);
      await settleOutcome(outcome, refresh);
      if (outcome.kind === 'credited') onCredited?.();
    } finally {
      setBusy(false);
    }
  };
  return { buy, busy, error };
}
