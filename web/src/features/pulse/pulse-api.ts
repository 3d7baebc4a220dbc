/** Pulse credits calls, answers parsed with core's schemas. */
import {
  MESSAGES,
  type PulseCheckoutInput,
  type PulseCheckoutResponse,
  type PulsePurchasesResponse,
  pulseCheckoutResponseSchema,
  pulsePurchasesResponseSchema,
} from '@moodmap/core';
import { api } from '../../lib/api.ts';

export const PULSE_PURCHASES_KEY = ['pulse', 'purchases'] as const;

export async function createCheckout(input: PulseCheckoutInput): Promise<PulseCheckoutResponse> {
  return pulseCheckoutResponseSchema.parse(
    await api<unknown>('/api/pulse/checkout', {
      method: 'POST',
      body: input,
      // A failed purchase shows the server's error, or this text.
      failureMessage: MESSAGES.pulse_checkout_failed,
    }),
  );
}

export async function fetchPurchases(signal?: AbortSignal): Promise<PulsePurchasesResponse> {
  return pulsePurchasesResponseSchema.parse(await api<unknown>('/api/pulse/purchases', { signal }));
}
