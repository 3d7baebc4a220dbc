/**
 * What a verified payment event does, exactly once. One transaction records the provider's
 * event id (payment_events' primary key) and applies its effect; a retried, replayed or
 * concurrent copy of the event finds the row (or waits on the first copy's insert, then finds
 * it) and does nothing. A purchase moves out of 'pending' once, which also keeps two different
 * events about one session (completed, then async_payment_succeeded) from crediting twice.
 *
 * The purchase row is the truth: its quantity and amount were set by the server when the
 * checkout was created. An event whose amount, currency, quantity or user differ is refused.
 */
import { and, eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { PULSE_UNIT_AMOUNT_CENTS } from '@moodmap/core';
import type { PaymentProviderKind } from '../../adapters/payments/index.ts';
import type { Db } from '../../db/client.ts';
import { paymentEvents, profiles, pulsePurchases } from '../../db/schema.ts';
import { creditMismatch } from '../../policies/payments.ts';
import { unspentCredits } from './spending.ts';

export type PurchaseRow = typeof pulsePurchases.$inferSelect;

export type EventOutcome =
  | { kind: 'duplicate' }
  | { kind: 'ignored'; reason: string }
  | { kind: 'credited'; purchase: PurchaseRow }
  | { kind: 'refused'; reason: string; purchase: PurchaseRow | null }
  | { kind: 'failed'; purchase: PurchaseRow }
  | { kind: 'taken_back'; purchase: PurchaseRow; creditsRemoved: number; dispute: boolean };

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

export async function applyPaymentEvent(
  db: Db,
  provider: PaymentProviderKind,
  event: Stripe.Event,
  now: Date,
): Promise<EventOutcome> {
  return db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(paymentEvents)
      .values({ id: event.id, provider, type: event.type, outcome: 'processing', receivedAt: now })
      .onConflictDoNothing({ target: paymentEvents.id })
      .returning({ id: paymentEvents.id });
    if (!fresh) return { kind: 'duplicate' } as const;
    const outcome = await dispatch(tx, provider, event, now);
    await tx
      .update(paymentEvents)
      .set({ outcome: outcomeLabel(outcome) })
      .where(eq(paymentEvents.id, event.id));
    return outcome;
  });
}

function outcomeLabel(outcome: EventOutcome): string {
  switch (outcome.kind) {
    case 'ignored':
    case 'refused':
      return `${outcome.kind}:${outcome.reason}`;
    default:
      return outcome.kind;
  }
}

async function dispatch(tx: Tx, provider: PaymentProviderKind, event: Stripe.Event, now: Date): Promise<EventOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
      // Card payments are paid here; delayed methods answer later with async_payment_*.
      if (event.data.object.payment_status === 'unpaid') return { kind: 'ignored', reason: 'awaiting_payment' };
      return credit(tx, provider, event.data.object, now);
    case 'checkout.session.async_payment_succeeded':
      return credit(tx, provider, event.data.object, now);
    case 'checkout.session.async_payment_failed':
      return closeUnpaid(tx, provider, event.data.object, 'failed');
    case 'checkout.session.expired':
      return closeUnpaid(tx, provider, event.data.object, 'expired');
    case 'charge.refunded': {
      const charge = event.data.object;
      // A partial refund takes back the credits it paid for, rounded up.
      const credits = Math.ceil(charge.amount_refunded / PULSE_UNIT_AMOUNT_CENTS);
      return takeBack(tx, provider, idOf(charge.payment_intent), credits, false, now);
    }
    case 'charge.dispute.created':
      return takeBack(tx, provider, idOf(event.data.object.payment_intent), Number.POSITIVE_INFINITY, true, now);
    default:
      return { kind: 'ignored', reason: 'unhandled_type' };
  }
}

async function purchaseOfSession(
  tx: Tx,
  provider: PaymentProviderKind,
  sessionId: string,
): Promise<PurchaseRow | undefined> {
  const [row] = await tx
    .select()
    .from(pulsePurchases)
    .where(and(eq(pulsePurchases.sessionId, sessionId), eq(pulsePurchases.provider, provider)))
    .for('update');
  return row;
}

async function credit(
  tx: Tx,
  provider: PaymentProviderKind,
  session: Stripe.Checkout.Session,
  now: Date,
): Promise<EventOutcome> {
  const purchase = await purchaseOfSession(tx, provider, session.id);
  if (!purchase) return { kind: 'refused', reason: 'unknown_session', purchase: null };
  const mismatch = creditMismatch(
    {
      amountTotal: session.amount_total,
      currency: session.currency,
      quantity: session.metadata?.quantity,
      userId: session.metadata?.user_id,
    },
    purchase,
  );
  if (mismatch) return { kind: 'refused', reason: `${mismatch}_mismatch`, purchase };
  if (purchase.status !== 'pending') return { kind: 'ignored', reason: `already_${purchase.status}` };
  const [paid] = await tx
    .update(pulsePurchases)
    .set({ status: 'paid', paidAt: now, paymentIntentId: idOf(session.payment_intent) })
    .where(and(eq(pulsePurchases.id, purchase.id), eq(pulsePurchases.status, 'pending')))
    .returning();
  if (!paid) return { kind: 'ignored', reason: 'already_settled' };
  await tx
    .update(profiles)
    .set({ pulseCredits: sql`${profiles.pulseCredits} + ${purchase.quantity}` })
    .where(eq(profiles.id, purchase.userId));
  return { kind: 'credited', purchase: paid };
}

async function closeUnpaid(
  tx: Tx,
  provider: PaymentProviderKind,
  session: Stripe.Checkout.Session,
  status: 'failed' | 'expired',
): Promise<EventOutcome> {
  const purchase = await purchaseOfSession(tx, provider, session.id);
  if (!purchase) return { kind: 'refused', reason: 'unknown_session', purchase: null };
  const [closed] = await tx
    .update(pulsePurchases)
    .set({ status })
    .where(and(eq(pulsePurchases.id, purchase.id), eq(pulsePurchases.status, 'pending')))
    .returning();
  return closed ? { kind: 'failed', purchase: closed } : { kind: 'ignored', reason: `already_${purchase.status}` };
}

/**
 * A refund or dispute takes back this purchase's credits still unspent: a credit already given
 * to a post stays with it (one credit, one post, its lifetime), and a credit another purchase
 * paid for is never taken. `wanted` is how many credits the refunds so far cover; a replayed or
 * later event takes only what the earlier ones did not.
 */
async function takeBack(
  tx: Tx,
  provider: PaymentProviderKind,
  paymentIntentId: string | null,
  wanted: number,
  dispute: boolean,
  now: Date,
): Promise<EventOutcome> {
  if (!paymentIntentId) return { kind: 'ignored', reason: 'no_payment_intent' };
  const ofPayment = and(eq(pulsePurchases.paymentIntentId, paymentIntentId), eq(pulsePurchases.provider, provider));
  const [found] = await tx.select({ userId: pulsePurchases.userId }).from(pulsePurchases).where(ofPayment);
  if (!found) return { kind: 'refused', reason: 'unknown_payment', purchase: null };
  // The profile first, then the purchase: the order a post spending a credit locks them in.
  const [balance] = await tx
    .select({ credits: profiles.pulseCredits })
    .from(profiles)
    .where(eq(profiles.id, found.userId))
    .for('update');
  const [purchase] = await tx.select().from(pulsePurchases).where(ofPayment).for('update');
  const settled = purchase.status === 'refunded' || purchase.status === 'disputed';
  const removed = Math.min(
    Math.min(wanted, purchase.quantity) - purchase.creditsRemoved,
    unspentCredits(purchase),
    balance?.credits ?? 0,
  );
  if (removed <= 0 && settled) return { kind: 'ignored', reason: 'already_taken_back' };
  const taken = Math.max(removed, 0);
  if (taken > 0) {
    await tx
      .update(profiles)
      .set({ pulseCredits: sql`${profiles.pulseCredits} - ${taken}` })
      .where(eq(profiles.id, purchase.userId));
  }
  const [updated] = await tx
    .update(pulsePurchases)
    .set({
      status: dispute ? 'disputed' : 'refunded',
      refundedAt: purchase.refundedAt ?? now,
      creditsRemoved: purchase.creditsRemoved + taken,
    })
    .where(eq(pulsePurchases.id, purchase.id))
    .returning();
  return { kind: 'taken_back', purchase: updated, creditsRemoved: taken, dispute };
}
