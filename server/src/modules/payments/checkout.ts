/**
 * Opening a checkout: the server prices it (2,50 € a credit, EUR) and records a pending
 * purchase before asking the provider, so a webhook can only ever credit what was created here.
 */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { PULSE_CURRENCY, PULSE_UNIT_AMOUNT_CENTS, type PulseQuantity } from '@moodmap/core';
import type { PaymentProvider } from '../../adapters/payments/index.ts';
import type { Db } from '../../db/client.ts';
import { pulsePurchases } from '../../db/schema.ts';
import { appError } from '../../errors.ts';

export interface OpenCheckout {
  userId: string;
  email: string;
  quantity: PulseQuantity;
  /** Same-window checkout: the app path to come back to; absent for the popup. */
  returnTo?: string;
  publicUrl: string;
}

/** Where the provider sends the buyer back: the web app's /pulse/retour page. */
export function returnUrls(provider: PaymentProvider, input: Pick<OpenCheckout, 'returnTo' | 'publicUrl'>) {
  const base = provider.absoluteUrls ? input.publicUrl : '';
  const query = (status: string) => {
    const params = new URLSearchParams({ statut: status });
    if (input.returnTo) params.set('retour', input.returnTo);
    return `${base}/pulse/retour?${params.toString()}`;
  };
  return { successUrl: query('ok'), cancelUrl: query('annule') };
}

export async function openCheckout(
  db: Db,
  provider: PaymentProvider,
  input: OpenCheckout,
  now: Date,
  log: FastifyBaseLogger,
) {
  const amountCents = PULSE_UNIT_AMOUNT_CENTS * input.quantity;
  const [purchase] = await db
    .insert(pulsePurchases)
    .values({
      userId: input.userId,
      provider: provider.kind,
      // Replaced by the provider's id right below; unique until then.
      sessionId: `opening_${crypto.randomUUID()}`,
      quantity: input.quantity,
      amountCents,
      currency: PULSE_CURRENCY.toUpperCase(),
      createdAt: now,
    })
    .returning({ id: pulsePurchases.id });
  let session;
  try {
    session = await provider.createCheckout({
      purchaseId: purchase.id,
      userId: input.userId,
      email: input.email,
      quantity: input.quantity,
      unitAmountCents: PULSE_UNIT_AMOUNT_CENTS,
      currency: PULSE_CURRENCY,
      ...returnUrls(provider, input),
    });
  } catch (error) {
    await db.update(pulsePurchases).set({ status: 'failed' }).where(eq(pulsePurchases.id, purchase.id));
    log.error({ err: error, purchaseId: purchase.id }, 'checkout session creation failed');
    throw appError(502, 'pulse_checkout_failed');
  }
  await db.update(pulsePurchases).set({ sessionId: session.sessionId }).where(eq(pulsePurchases.id, purchase.id));
  return session;
}
