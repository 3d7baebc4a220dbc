/**
 * /pulse/retour: where the checkout sends the buyer back (success or cancel URL). In the
 * desktop popup it just closes itself (the opener is polling it). After a same-window checkout
 * (mobile) it reads the outcome and returns to the page the purchase started from, with the
 * result shown there (a toast, and `pulseCredited` in the navigation state for the toggle).
 */
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { MESSAGES, TIMING, returnPathSchema } from '@moodmap/core';
import { Spinner } from '../../ui/Button.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { useSessionStore } from '../auth/session-store.ts';
import { PENDING_KEY, type PurchaseOutcome, readOutcome } from './checkout-flow.ts';
import { PULSE_PURCHASES_KEY } from './pulse-api.ts';
import { settleOutcome } from './use-pulse-purchase.ts';

export interface PulseReturnState {
  pulseCredited: boolean;
}

/** Whether a navigation state says the Pulse checkout just credited (the create page's toggle). */
export function pulseCreditedIn(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'pulseCredited' in state && state.pulseCredited === true;
}

/** A provider's webhook may arrive a moment after the buyer: a few reads, a second apart. */
const RETURN_READS = 5;

function pendingBefore(): number {
  try {
    const raw = window.sessionStorage.getItem(PENDING_KEY);
    window.sessionStorage.removeItem(PENDING_KEY);
    const before: unknown = raw ? JSON.parse(raw)?.before : null;
    return typeof before === 'number' ? before : 0;
  } catch {
    return 0;
  }
}

export function PulseReturnPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const status = useSessionStore((s) => s.status);
  const reloadUser = useSessionStore((s) => s.reloadUser);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    if (window.opener) {
      started.current = true;
      window.close();
      return;
    }
    // The session is restored first (the balance is the signed-in user's).
    if (status === 'initialising') return;
    started.current = true;
    const target = returnPathSchema.safeParse(params.get('retour'));
    const back = target.success && !target.data.startsWith('/pulse/') ? target.data : '/';
    const before = pendingBefore();
    const refresh = async () => {
      await Promise.all([reloadUser(), queryClient.invalidateQueries({ queryKey: PULSE_PURCHASES_KEY })]);
    };
    void (async () => {
      if (params.get('statut') !== 'ok') {
        toast.info(MESSAGES.pulse_purchase_cancelled);
        void navigate(back, { replace: true });
        return;
      }
      let outcome: PurchaseOutcome = await readOutcome(before);
      for (let i = 1; i < RETURN_READS && outcome.kind === 'unchanged'; i++) {
        await new Promise((resolve) => setTimeout(resolve, TIMING.pulseCheckoutPollMs));
        outcome = await readOutcome(before);
      }
      if (outcome.kind === 'error') toast.error(outcome.message);
      await settleOutcome(outcome, refresh);
      void navigate(back, {
        replace: true,
        state: { pulseCredited: outcome.kind === 'credited' } satisfies PulseReturnState,
      });
    })();
  }, [status, params, navigate, queryClient, reloadUser]);

  return (
    <div className="flex min-h-dvh items-center justify-center gap-3 text-brand-500" role="status">
      <Spinner className="size-6 border-[3px]" />
      <span className="text-sm font-medium text-slate-600 dark:text-slate-300">{MESSAGES.pulse_returning}</span>
    </div>
  );
}
