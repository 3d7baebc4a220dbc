/**
 * The embedded dev checkout: a card form served by this app (/dev/checkout/:id, see
 * modules/payments/dev-checkout.ts) instead of a provider's page. It never talks to a network:
 * when the form is paid it builds the event Stripe would send, signs it the Stripe way with a
 * dev webhook secret, and posts it to the app's own webhook route — so verification and
 * crediting are the very code that runs with Stripe.
 */
import { createHmac, randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { CheckoutRequest, PaymentProviderBase } from './types.ts';

/** What the dev page needs beyond the pulse_purchases row (kept in memory: dev only). */
export interface DevSession {
  request: CheckoutRequest;
  createdAt: Date;
}

export interface DevPaymentProvider extends PaymentProviderBase {
  readonly kind: 'dev';
  readonly webhookSecret: string;
  session(sessionId: string): DevSession | undefined;
  /** The `Stripe-Signature` header for a payload, exactly as Stripe computes it. */
  sign(payload: string): string;
}

/**
 * The dev webhook secret is derived from the server secret, so every instance sharing it
 * (JWT_SECRET or the data directory) accepts the others' dev events.
 */
export function devWebhookSecret(serverSecret: Buffer): string {
  return `whsec_dev_${createHmac('sha256', serverSecret).update('moodmap dev checkout webhook').digest('base64url')}`;
}

export function createDevProvider(serverSecret: Buffer): DevPaymentProvider {
  const webhookSecret = devWebhookSecret(serverSecret);
  // No API key is ever used: the package is only the signature's reference implementation.
  const stripe = new Stripe('sk_test_dev_checkout_never_sent');
  const sessions = new Map<string, DevSession>();
  return {
    kind: 'dev',
    absoluteUrls: false,
    webhookSecret,
    async createCheckout(request) {
      const sessionId = `cs_dev_${randomBytes(18).toString('base64url')}`;
      sessions.set(sessionId, { request, createdAt: new Date() });
      return { sessionId, url: `/dev/checkout/${sessionId}` };
    },
    session: (sessionId) => sessions.get(sessionId),
    sign: (payload) => stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
    verifyWebhook(rawBody, signature) {
      if (!signature) throw new Error('missing Stripe-Signature header');
      return stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
    },
  };
}
