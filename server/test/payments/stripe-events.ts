/**
 * Stripe-shaped events for the webhook tests, signed with the stripe package's own test-header
 * helper, so the route's real verification (constructEvent, tolerance) runs on them.
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { LightMyRequestResponse } from 'fastify';
import type { FastifyInstance } from 'fastify';

export const WEBHOOK_SECRET = 'whsec_test_moodmap_payments';
export const STRIPE_CONFIG = { stripe: { secretKey: 'sk_test_never_called', webhookSecret: WEBHOOK_SECRET } };
const stripe = new Stripe('sk_test_never_called');

export const randomId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;

export function event(type: string, object: Record<string, unknown>, id = randomId('evt')) {
  return {
    id,
    object: 'event',
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

export interface SessionFields {
  sessionId: string;
  userId: string;
  quantity: number;
  amountTotal: number;
  currency?: string;
  paymentIntent?: string;
  paymentStatus?: 'paid' | 'unpaid';
  metadataQuantity?: string;
}

export function sessionObject(f: SessionFields) {
  return {
    id: f.sessionId,
    object: 'checkout.session',
    mode: 'payment',
    status: 'complete',
    payment_status: f.paymentStatus ?? 'paid',
    amount_total: f.amountTotal,
    currency: f.currency ?? 'eur',
    payment_intent: f.paymentIntent ?? randomId('pi'),
    metadata: { user_id: f.userId, quantity: f.metadataQuantity ?? String(f.quantity) },
  };
}

export function sign(payload: string, secret = WEBHOOK_SECRET, timestamp?: number): string {
  return stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

export function deliver(
  app: FastifyInstance,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload), ...headers },
    payload,
  });
}
