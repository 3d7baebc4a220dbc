import { randomBytes } from 'node:crypto';
import { PULSE_CURRENCY } from '@moodmap/core';
import type { pulsePurchases } from '../../db/schema.ts';

type Purchase = typeof pulsePurchases.$inferSelect;

/** The `checkout.session.completed` event Stripe would send for this paid dev session. */
export function paidEvent(sessionId: string, purchase: Purchase, now: Date) {
  return {
    id: `evt_dev_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: '2025-01-01',
    created: Math.floor(now.getTime() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'checkout.session.completed',
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        amount_subtotal: purchase.amountCents,
        amount_total: purchase.amountCents,
        currency: PULSE_CURRENCY,
        client_reference_id: purchase.userId,
        payment_intent: `pi_dev_${randomBytes(12).toString('hex')}`,
        metadata: { user_id: purchase.userId, quantity: String(purchase.quantity), purchase_id: purchase.id },
      },
    },
  };
}
