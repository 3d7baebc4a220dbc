/**
 * Pulse purchases (docs/product.md, Pulse). A member lists and buys only for themself (every
 * read is scoped to the caller; buying is a 'purchase' write, standing.ts). What a paid checkout
 * may credit is decided here: exactly the purchase the server priced, for its buyer.
 */

/** What the payment provider says was paid. */
export interface PaidCheckout {
  amountTotal: number | null;
  currency: string | null;
  quantity: string | undefined;
  userId: string | undefined;
}

export interface PricedPurchase {
  amountCents: number;
  currency: string;
  quantity: number;
  userId: string;
}

export type CreditMismatch = 'amount' | 'currency' | 'quantity' | 'user';

/** The first thing the payment does not match in the purchase (nothing is credited then), or null. */
export function creditMismatch(paid: PaidCheckout, purchase: PricedPurchase): CreditMismatch | null {
  if (paid.amountTotal !== purchase.amountCents) return 'amount';
  if ((paid.currency ?? '').toLowerCase() !== purchase.currency.toLowerCase()) return 'currency';
  if (paid.quantity !== String(purchase.quantity)) return 'quantity';
  if (paid.userId !== purchase.userId) return 'user';
  return null;
}
