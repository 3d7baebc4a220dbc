/**
 * Stripe Checkout (hosted page): one Session per purchase, priced by the server in EUR, with
 * the user id and quantity in its metadata. Webhooks are verified by the official package.
 */
import Stripe from 'stripe';
import type { PaymentProviderBase } from './types.ts';

export interface StripePaymentProvider extends PaymentProviderBase {
  readonly kind: 'stripe';
}

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where the API is (tests point it at a local peer); Stripe's own by default. */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
}

export function createStripeProvider(options: StripeOptions): StripePaymentProvider {
  const stripe = new Stripe(options.secretKey, { maxNetworkRetries: 2, timeout: 15_000, ...options.api });
  return {
    kind: 'stripe',
    absoluteUrls: true,
    async createCheckout(request) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          locale: 'fr',
          customer_email: request.email,
          client_reference_id: request.userId,
          line_items: [
            {
              quantity: request.quantity,
              price_data: {
                currency: request.currency,
                unit_amount: request.unitAmountCents,
                product_data: {
                  name: 'Crédit Pulse MoodMap',
                  description: 'Un crédit = l’effet Pulse sur une publication pendant toute sa durée',
                },
              },
            },
          ],
          metadata: { user_id: request.userId, quantity: String(request.quantity), purchase_id: request.purchaseId },
          payment_intent_data: { metadata: { user_id: request.userId, purchase_id: request.purchaseId } },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: `pulse-checkout-${request.purchaseId}` },
      );
      if (!session.url) throw new Error('Stripe returned a session without url');
      return { sessionId: session.id, url: session.url };
    },
    verifyWebhook(rawBody, signature) {
      if (!signature) throw new Error('missing Stripe-Signature header');
      return stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
    },
  };
}
