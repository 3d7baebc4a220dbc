/**
 * Pulse credits (docs/product.md, Pulse): the
 * checkout a signed-in user opens, their purchase history, the payment provider's webhook answer
 * and the staff tier setting. The price is the server's: a client only picks a quantity.
 */
import { z } from 'zod';
import { PULSE_PRICE_EUR, TIERS } from '../limits.ts';
import { MESSAGES } from '../messages.ts';

/** The quantities offered (credits per purchase). Any other is refused. */
export const PULSE_QUANTITIES = [1, 5, 10] as const;
export type PulseQuantity = (typeof PULSE_QUANTITIES)[number];
/** 2,50 € in cents: what the provider is asked to charge per credit. */
export const PULSE_UNIT_AMOUNT_CENTS = Math.round(PULSE_PRICE_EUR * 100);
export const PULSE_CURRENCY = 'eur';

/**
 * Where the user comes back after paying: a path of this app (never another site, so a
 * checkout link cannot be turned into an open redirect).
 */
export const returnPathSchema = z
  .string()
  .max(300)
  .regex(/^\/(?![/\\])[^\s]*$/, { error: MESSAGES.bad_request });

export const pulseCheckoutSchema = z.strictObject({
  quantity: z.union(
    PULSE_QUANTITIES.map((q) => z.literal(q)),
    { error: MESSAGES.pulse_quantity_invalid },
  ),
  /** Same-window checkout (mobile): the page to come back to. Absent for the desktop popup. */
  returnTo: returnPathSchema.optional(),
});
export type PulseCheckoutInput = z.input<typeof pulseCheckoutSchema>;

export const pulseCheckoutResponseSchema = z.object({
  /** The provider's checkout page (absolute for Stripe, this app's /dev/checkout/... otherwise). */
  url: z.string(),
  sessionId: z.string(),
});
export type PulseCheckoutResponse = z.infer<typeof pulseCheckoutResponseSchema>;

export const PURCHASE_STATUSES = ['pending', 'paid', 'failed', 'expired', 'refunded', 'disputed'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

export const pulsePurchaseSchema = z.object({
  id: z.string(),
  /** ISO 8601 */
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  quantity: z.number().int(),
  amountCents: z.number().int(),
  currency: z.string(),
  status: z.enum(PURCHASE_STATUSES),
});
export type PulsePurchase = z.infer<typeof pulsePurchaseSchema>;

/** `GET /api/pulse/purchases`: the balance and the newest purchases first. */
export const pulsePurchasesResponseSchema = z.object({
  credits: z.number().int(),
  purchases: z.array(pulsePurchaseSchema),
});
export type PulsePurchasesResponse = z.infer<typeof pulsePurchasesResponseSchema>;

export const paymentWebhookResponseSchema = z.object({ received: z.literal(true) });

/** Staff set a member's tier, a badge that grants nothing: 'Gratuit' clears every flag. */
export const tierSchema = z.enum(TIERS, { error: MESSAGES.tier_invalid });
export type TierName = z.infer<typeof tierSchema>;
export const setTierSchema = z.strictObject({ tier: tierSchema });
export const userIdParamsSchema = z.object({ id: z.uuid({ error: MESSAGES.not_found }) });
export const setTierResponseSchema = z.object({
  userId: z.string(),
  tier: tierSchema,
});
