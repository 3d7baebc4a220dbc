/**
 * The payment provider's webhook: `POST /api/payments/webhook`. Its signature covers the exact
 * bytes sent, so this route alone reads its body raw (a Buffer, never parsed to JSON before the
 * check). Stripe and the dev checkout both post here; a refused signature is a 400 and changes
 * nothing, a handled or duplicate event a 200, a failure a 500 (the provider retries later).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { euros, paymentWebhookResponseSchema } from '@moodmap/core';
import type { PaymentProvider } from '../../adapters/payments/index.ts';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../errors.ts';
import { applyPaymentEvent, type EventOutcome } from './credits.ts';
import { sendReceipt } from './receipt-delivery.ts';

export const WEBHOOK_PATH = '/api/payments/webhook';
/** Stripe's events are a few KiB; the app-wide JSON limit is not meant for them. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

export default async function paymentWebhookRoutes(
  root: FastifyInstance,
  { ctx, provider }: { ctx: AppContext; provider: PaymentProvider },
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  // Encapsulated in this plugin: every other route keeps the JSON parser.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    WEBHOOK_PATH,
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: { response: { 200: paymentWebhookResponseSchema } },
    },
    async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers['stripe-signature'];
      let event;
      try {
        event = provider.verifyWebhook(raw, typeof header === 'string' ? header : undefined);
      } catch (error) {
        request.log.warn({ err: error }, 'payment webhook refused');
        await ctx.logSecurityEvent({
          eventType: 'payment_webhook_refused',
          description: 'Webhook de paiement à la signature absente ou invalide',
          severity: 'high',
          ip: request.ip,
        });
        throw badRequest('payment_webhook_invalid');
      }
      const outcome = await applyPaymentEvent(ctx.database.db, provider.kind, event, ctx.now());
      request.log.info({ eventId: event.id, type: event.type, outcome: outcome.kind }, 'payment event');
      await afterCommit(ctx, outcome, event.id, request.log);
      return reply.send({ received: true });
    },
  );
}

/** Effects outside the transaction: the receipt and the security log. Neither may fail the 200. */
async function afterCommit(ctx: AppContext, outcome: EventOutcome, eventId: string, log: FastifyInstance['log']) {
  switch (outcome.kind) {
    case 'credited':
      // The analytics' premium conversion, with its revenue in EUR from the payment itself.
      await ctx.analytics
        .record({ name: 'premium_conversion', path: '/pulse/retour', revenueCents: outcome.purchase.amountCents })
        .catch((error) => log.warn({ err: error }, 'premium conversion not recorded'));
      await sendReceipt(ctx, outcome.purchase).catch((error) =>
        log.error({ err: error, purchaseId: outcome.purchase.id }, 'receipt not sent'),
      );
      return;
    case 'refused':
      await ctx.logSecurityEvent({
        userId: outcome.purchase?.userId ?? null,
        eventType: 'payment_event_refused',
        description: `Événement de paiement ${eventId} refusé (${outcome.reason})`,
        severity: outcome.reason === 'unknown_session' || outcome.reason === 'unknown_payment' ? 'medium' : 'high',
      });
      return;
    case 'taken_back':
      await ctx.logSecurityEvent({
        userId: outcome.purchase.userId,
        eventType: outcome.dispute ? 'payment_disputed' : 'payment_refunded',
        description: `${outcome.dispute ? 'Litige' : 'Remboursement'} sur l'achat ${outcome.purchase.id} (${outcome.purchase.quantity} crédit(s), ${euros(outcome.purchase.amountCents)}) : ${outcome.creditsRemoved} crédit(s) non utilisé(s) retiré(s)`,
        severity: outcome.dispute ? 'high' : 'medium',
      });
      return;
    default:
  }
}
