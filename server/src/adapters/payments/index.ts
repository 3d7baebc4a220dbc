/** Picks the payment provider from the configuration (one variable pair, like the other engines). */
import type { Config } from '../../config.ts';
import { createDevProvider, type DevPaymentProvider } from './dev.ts';
import { createStripeProvider, type StripePaymentProvider } from './stripe.ts';

/** Narrowed by `kind`: only the dev provider signs its own events and serves pages. */
export type PaymentProvider = DevPaymentProvider | StripePaymentProvider;

/**
 * Stripe when both keys are set. Otherwise the dev checkout — except in production, where a
 * page that credits for free must never exist: there is no provider and checkout answers 503.
 */
export function createPayments(config: Pick<Config, 'stripe' | 'env'>, serverSecret: Buffer): PaymentProvider | null {
  if (config.stripe) return createStripeProvider(config.stripe);
  if (config.env === 'production') return null;
  return createDevProvider(serverSecret);
}

export type { CheckoutRequest, CheckoutSession, PaymentProviderKind } from './types.ts';
export { createDevProvider, devWebhookSecret, type DevPaymentProvider } from './dev.ts';
