/** A small, non-blocking banner above the composer: 'Activer les notifications' / 'Plus tard'. */
import { useState } from 'react';
import { MESSAGES } from '@moodmap/core';
import { Spinner } from '../../ui/Button.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { PushSetupError, enablePush, rememberOfferAnswer } from './browser-push.ts';
import { usePushOffer } from './offer-store.ts';

export function PushOffer() {
  const visible = usePushOffer((s) => s.visible);
  const hide = usePushOffer((s) => s.hide);
  const [busy, setBusy] = useState(false);
  if (!visible) return null;

  const accept = async () => {
    setBusy(true);
    try {
      await enablePush();
      rememberOfferAnswer('enabled');
      toast.success(MESSAGES.push_enabled);
      hide();
    } catch (error) {
      toast.error(error instanceof PushSetupError ? error.message : MESSAGES.push_failed);
      // Blocked by the browser: asking again would be pointless.
      if (typeof Notification !== 'undefined' && Notification.permission === 'denied') {
        rememberOfferAnswer('later');
        hide();
      }
    } finally {
      setBusy(false);
    }
  };
  const later = () => {
    rememberOfferAnswer('later');
    hide();
  };

  return (
    <section
      aria-label={MESSAGES.push_devices_title}
      data-testid="push-offer"
      className="mx-3 mb-2 flex flex-wrap items-center gap-2 rounded-xl bg-brand-50 px-3 py-2 text-sm text-ink-800 ring-1 ring-brand-100 md:mx-4 dark:bg-white/5 dark:text-slate-100 dark:ring-white/10"
    >
      <p className="min-w-0 flex-1">{MESSAGES.push_offer_text}</p>
      <button
        type="button"
        onClick={() => void accept()}
        disabled={busy}
        data-testid="push-offer-accept"
        className="inline-flex min-h-9 items-center gap-1.5 rounded-lg bg-brand-700 px-3 text-xs font-semibold text-white transition hover:brightness-110 disabled:opacity-60"
      >
        {busy ? <Spinner /> : null}
        {MESSAGES.push_offer_accept}
      </button>
      <button
        type="button"
        onClick={later}
        disabled={busy}
        data-testid="push-offer-later"
        className="inline-flex min-h-9 items-center rounded-lg px-3 text-xs font-semibold text-brand-700 transition hover:bg-brand-100 dark:text-brand-300 dark:hover:bg-white/5"
      >
        {MESSAGES.push_offer_later}
      </button>
    </section>
  );
}
