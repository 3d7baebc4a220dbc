/**
 * Pulse credits API (docs/product.md, Pulse):
 *
 *   POST /api/pulse/checkout   { quantity: 1|5|10, returnTo? } → { url, sessionId }
 *   GET  /api/pulse/purchases                                → { credits, purchases[] }
 *   POST /api/payments/webhook (provider, signed raw body)    → { received: true }   (webhook.ts)
 *   GET/POST /dev/checkout/:id (dev checkout pages, never in production)         (dev-checkout.ts)
 *
 * The client picks a quantity only: the price, currency and crediting are the server's.
 */
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  pulseCheckoutResponseSchema,
  pulseCheckoutSchema,
  pulsePurchasesResponseSchema,
  type PulseQuantity,
} from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { profiles, pulsePurchases } from '../../db/schema.ts';
import { appError, notFound } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { findUserById } from '../auth/users.ts';
import { openCheckout } from './checkout.ts';
import devCheckoutRoutes from './dev-checkout.ts';
import paymentWebhookRoutes from './webhook.ts';

const HISTORY_LIMIT = 50;
const noStore = { 'cache-control': 'no-store' };

export default async function paymentsRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  // Stripe, the dev checkout, or none (production without Stripe keys).
  const provider = ctx.payments;

  app.post(
    '/api/pulse/checkout',
    {
      config: { write: 'purchase' },
      onRequest: app.authenticate,
      schema: { body: pulseCheckoutSchema, response: { 200: pulseCheckoutResponseSchema } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      if (!provider) throw appError(503, 'payment_unavailable');
      await ctx.limits.consume('pulse_checkout', `user:${userId}`, { userId, ip: request.ip });
      const user = await findUserById(db, userId);
      if (!user) throw notFound();
      const quantity: PulseQuantity = request.body.quantity;
      const session = await openCheckout(
        db,
        provider,
        {
          userId,
          email: user.email,
          quantity,
          returnTo: request.body.returnTo,
          publicUrl: ctx.config.publicUrl,
        },
        ctx.now(),
        request.log,
      );
      return reply.headers(noStore).send(session);
    },
  );

  app.get(
    '/api/pulse/purchases',
    {
      onRequest: app.authenticate,
      schema: { response: { 200: pulsePurchasesResponseSchema } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const [balance] = await db
        .select({ credits: profiles.pulseCredits })
        .from(profiles)
        .where(eq(profiles.id, userId))
        .limit(1);
      const rows = await db
        .select()
        .from(pulsePurchases)
        .where(eq(pulsePurchases.userId, userId))
        .orderBy(desc(pulsePurchases.createdAt))
        .limit(HISTORY_LIMIT);
      return reply.headers(noStore).send({
        credits: balance?.credits ?? 0,
        purchases: rows.map((row) => ({
          id: row.id,
          createdAt: row.createdAt.toISOString(),
          paidAt: row.paidAt?.toISOString() ?? null,
          quantity: row.quantity,
          amountCents: row.amountCents,
          currency: row.currency,
          status: row.status,
        })),
      });
    },
  );

  if (provider) await app.register(paymentWebhookRoutes, { ctx, provider });
  if (provider?.kind === 'dev') await app.register(devCheckoutRoutes, { ctx, provider });
}
