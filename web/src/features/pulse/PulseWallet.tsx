/**
 * The own profile's Pulse section: balance, purchase controls and the purchase
 * history (date, quantity, amount, status), newest first.
 */
import { useQuery } from '@tanstack/react-query';
import { MESSAGES, type PurchaseStatus, euros, frDateTime } from '@moodmap/core';
import { SparkIcon } from '../../ui/icons.tsx';
import { useSessionStore } from '../auth/session-store.ts';
import { PurchaseControls } from './PurchaseControls.tsx';
import { PULSE_PURCHASES_KEY, fetchPurchases } from './pulse-api.ts';

const STATUS_TEXT: Record<PurchaseStatus, string> = {
  pending: MESSAGES.pulse_status_pending,
  paid: MESSAGES.pulse_status_paid,
  failed: MESSAGES.pulse_status_failed,
  expired: MESSAGES.pulse_status_expired,
  refunded: MESSAGES.pulse_status_refunded,
  disputed: MESSAGES.pulse_status_disputed,
};
const STATUS_TONE: Record<PurchaseStatus, string> = {
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300',
  paid: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300',
  failed: 'bg-rose-100 text-rose-800 dark:bg-rose-500/15 dark:text-rose-300',
  expired: 'bg-slate-100 text-slate-600 dark:bg-white/10 dark:text-slate-300',
  refunded: 'bg-slate-100 text-slate-600 dark:bg-white/10 dark:text-slate-300',
  disputed: 'bg-rose-100 text-rose-800 dark:bg-rose-500/15 dark:text-rose-300',
};

export function PulseWallet() {
  const credits = useSessionStore((s) => s.user?.pulseCredits ?? 0);
  const history = useQuery({
    queryKey: PULSE_PURCHASES_KEY,
    queryFn: ({ signal }) => fetchPurchases(signal),
    staleTime: 0,
  });
  const purchases = history.data?.purchases ?? [];
  return (
    <section
      className="rounded-2xl bg-gradient-to-br from-brand-500/[0.08] to-violet-brand/[0.12] p-4 ring-1 ring-violet-brand/20"
      data-testid="pulse-wallet"
    >
      <div className="flex items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-brand-500 to-violet-brand text-white shadow-md shadow-brand-500/30">
          <SparkIcon size={20} />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
            {MESSAGES.pulse_balance}
          </p>
          <p className="text-2xl font-extrabold text-ink-900 dark:text-white" data-testid="pulse-balance">
            {credits}
          </p>
        </div>
      </div>
      <div className="mt-3">
        <PurchaseControls />
      </div>
      <h3 className="mt-4 text-sm font-bold text-ink-900 dark:text-white">{MESSAGES.pulse_history_title}</h3>
      {purchases.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{MESSAGES.pulse_history_empty}</p>
      ) : (
        <table className="mt-2 w-full text-left text-sm" data-testid="pulse-history">
          <thead className="text-xs text-slate-500 dark:text-slate-400">
            <tr>
              <th className="py-1 font-medium">{MESSAGES.pulse_history_date}</th>
              <th className="py-1 text-right font-medium">{MESSAGES.pulse_history_quantity}</th>
              <th className="py-1 text-right font-medium">{MESSAGES.pulse_history_amount}</th>
              <th className="py-1 text-right font-medium">{MESSAGES.pulse_history_status}</th>
            </tr>
          </thead>
          <tbody className="text-ink-900 dark:text-slate-100">
            {purchases.map((p) => (
              <tr key={p.id} className="border-t border-slate-200/70 dark:border-white/10">
                <td className="py-1.5">{frDateTime(p.paidAt ?? p.createdAt)}</td>
                <td className="py-1.5 text-right">{p.quantity}</td>
                <td className="py-1.5 text-right">{euros(p.amountCents)}</td>
                <td className="py-1.5 text-right">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_TONE[p.status]}`}>
                    {STATUS_TEXT[p.status]}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
