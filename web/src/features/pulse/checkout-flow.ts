/**
 * The Pulse purchase flow (docs/product.md, Pulse), apart from React so its
 * timing can be tested: desktop opens the checkout in an 800×600 popup polled every second,
 * closed after 300 s; 2 s after it closes the balance is read, and a higher balance is the
 * success. Mobile (≤ 768 px) leaves for the checkout in the same window and comes back to
 * /pulse/retour, which returns to the page it left.
 */
import { MESSAGES, type PulseQuantity, TIMING } from '@moodmap/core';
import { ApiError } from '../../lib/api.ts';
import { createCheckout, fetchPurchases } from './pulse-api.ts';

export const MOBILE_QUERY = '(max-width: 768px)';
export const POPUP_FEATURES = 'width=800,height=600';
/** Remembered across the mobile redirect: the balance before paying. */
export const PENDING_KEY = 'moodmap.pulse.pending';

export type PurchaseOutcome =
  | { kind: 'credited'; credits: number; added: number }
  /** The popup closed with no new credit (cancelled, declined, or the payment is still on its way). */
  | { kind: 'unchanged'; credits: number }
  | { kind: 'redirecting' }
  | { kind: 'error'; message: string };

export interface FlowDeps {
  mobile: boolean;
  /** The page to come back to after a same-window checkout (mobile). */
  returnTo: string;
  openWindow: (url: string, name: string, features: string) => Window | null;
  assign: (url: string) => void;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  storage: Pick<Storage, 'setItem'>;
}

export const browserDeps = (returnTo: string): FlowDeps => ({
  // jsdom and very old browsers have no matchMedia: desktop.
  mobile: typeof window.matchMedia === 'function' && window.matchMedia(MOBILE_QUERY).matches,
  returnTo,
  openWindow: (url, name, features) => window.open(url, name, features),
  assign: (url) => window.location.assign(url),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
  storage: window.sessionStorage,
});

/** A failed purchase: the session text, the server's error, or the generic one. */
export function checkoutErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return MESSAGES.pulse_session_missing;
    if (error.status > 0 && error.message) return error.message;
  }
  return MESSAGES.pulse_checkout_failed;
}

export async function runPurchase(quantity: PulseQuantity, before: number, deps: FlowDeps): Promise<PurchaseOutcome> {
  // Opened now, inside the click: a popup opened after an await is blocked by browsers.
  const popup = deps.mobile ? null : deps.openWindow('', 'moodmap-pulse-checkout', POPUP_FEATURES);
  if (!deps.mobile && !popup) return { kind: 'error', message: MESSAGES.pulse_popup_blocked };
  let url: string;
  try {
    const session = await createCheckout({ quantity, ...(deps.mobile ? { returnTo: deps.returnTo } : {}) });
    url = session.url;
  } catch (error) {
    popup?.close();
    return { kind: 'error', message: checkoutErrorMessage(error) };
  }
  if (!url) {
    popup?.close();
    return { kind: 'error', message: MESSAGES.pulse_redirect_missing };
  }
  if (!popup) {
    deps.storage.setItem(PENDING_KEY, JSON.stringify({ before, quantity }));
    deps.assign(url);
    return { kind: 'redirecting' };
  }
  popup.location.href = url;
  const deadline = deps.now() + TIMING.pulseCheckoutTimeoutMs;
  while (!popup.closed) {
    if (deps.now() >= deadline) {
      popup.close();
      break;
    }
    await deps.sleep(TIMING.pulseCheckoutPollMs);
  }
  // The webhook may land just after the return page closed the popup.
  await deps.sleep(TIMING.pulsePostCloseWaitMs);
  return readOutcome(before);
}

export async function readOutcome(before: number): Promise<PurchaseOutcome> {
  try {
    const { credits } = await fetchPurchases();
    return credits > before ? { kind: 'credited', credits, added: credits - before } : { kind: 'unchanged', credits };
  } catch (error) {
    return { kind: 'error', message: checkoutErrorMessage(error) };
  }
}
