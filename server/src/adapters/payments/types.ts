/**
 * The payment provider behind one variable (docs/architecture.md, Pulse payments): Stripe when STRIPE_SECRET_KEY and
 * STRIPE_WEBHOOK_SECRET are set, otherwise the embedded dev checkout. Both speak Stripe's
 * webhook format and signature, so modules/payments verifies and credits through one path.
 */
import type Stripe from 'stripe';

export type PaymentProviderKind = 'dev' | 'stripe';

export interface CheckoutRequest {
  /** Our pulse_purchases row, carried in the session's metadata for the logs. */
  purchaseId: string;
  userId: string;
  email: string;
  quantity: number;
  unitAmountCents: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSession {
  sessionId: string;
  url: string;
}

export interface PaymentProviderBase {
  readonly kind: PaymentProviderKind;
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * The event a webhook carries, once its signature over the exact raw bytes is checked with
   * the stripe package's tolerance (5 min). Throws on a missing, bad or stale signature.
   */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): Stripe.Event;
  /** Absolute success/cancel URLs for Stripe; the dev checkout stays on this app, relative. */
  readonly absoluteUrls: boolean;
}
