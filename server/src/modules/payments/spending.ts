/**
 * Which purchase a spent Pulse credit came from: the member's oldest one that still has an
 * unspent credit (first in, first out). A refund or dispute of a purchase then takes back only
 * what that purchase has left, never a credit another purchase paid for.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pulsePurchases } from '../../db/schema.ts';

/** Statuses whose credits reached the balance (a refund may leave some of them unspent). */
const CREDITED = ['paid', 'refunded', 'disputed'] as const;

/** Unspent credits of a purchase still on the member's balance. */
export const unspentCredits = (p: { quantity: number; creditsSpent: number; creditsRemoved: number }) =>
  p.quantity - p.creditsSpent - p.creditsRemoved;

/**
 * Marks one credit spent. Call it in the transaction that took the credit off the profile's
 * balance: that row lock comes first, the order a refund also takes (profile, then purchase).
 */
export async function spendFromOldestPurchase(tx: Db, userId: string): Promise<void> {
  const [oldest] = await tx
    .select({ id: pulsePurchases.id })
    .from(pulsePurchases)
    .where(
      and(
        eq(pulsePurchases.userId, userId),
        inArray(pulsePurchases.status, [...CREDITED]),
        sql`${pulsePurchases.creditsSpent} + ${pulsePurchases.creditsRemoved} < ${pulsePurchases.quantity}`,
      ),
    )
    .orderBy(asc(pulsePurchases.paidAt), asc(pulsePurchases.createdAt), asc(pulsePurchases.id))
    .limit(1)
    .for('update');
  // None: the credit was not bought (granted otherwise), so no purchase answers for it.
  if (!oldest) return;
  await tx
    .update(pulsePurchases)
    .set({ creditsSpent: sql`${pulsePurchases.creditsSpent} + 1` })
    .where(eq(pulsePurchases.id, oldest.id));
}
