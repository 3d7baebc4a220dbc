/**
 * The dev checkout's pages (no Stripe keys, never in production): a French card form clearly
 * marked as a test payment, answering to the card processor's public test numbers —
 *   4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined,
 *   4000 0025 0000 3155 asks for a confirmation step first;
 * any future expiry date and any CVC. A paid form becomes the `checkout.session.completed`
 * event Stripe would send, signed with the dev webhook secret and posted to the app's own
 * webhook route: the crediting path is the real one.
 *
 * Plain HTML forms (the CSP allows no inline script): the page works in the desktop popup and
 * in the mobile same-window redirect alike.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DevPaymentProvider } from '../../adapters/payments/index.ts';
import type { AppContext } from '../../context.ts';
import { pulsePurchases } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { paidEvent } from './dev-checkout-event.ts';
import { closedPage, confirmPage, formPage, TEXT } from './dev-checkout-pages.ts';
import { WEBHOOK_PATH } from './webhook.ts';

export const DEV_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  confirm: '4000002500003155',
} as const;

const params = z.object({ id: z.string().regex(/^cs_dev_[\w-]{10,40}$/) });
const cardForm = z.object({
  card: z.string().max(40).default(''),
  expiry: z.string().max(10).default(''),
  cvc: z.string().max(10).default(''),
  name: z.string().max(100).default(''),
});
const confirmForm = z.object({ decision: z.enum(['confirm', 'refuse']) });

/** A future MM/AA (or MM/AAAA): the card is valid through the end of that month. */
export function expiryIsFuture(value: string, now: Date): boolean {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return false;
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return false;
  return new Date(Date.UTC(year, month, 1)) > now;
}

export default async function devCheckoutRoutes(
  root: FastifyInstance,
  { ctx, provider }: { ctx: AppContext; provider: DevPaymentProvider },
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  // A plain HTML form posts urlencoded fields; only this plugin's routes read them.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
    },
  );

  const load = async (sessionId: string) => {
    const [purchase] = await db
      .select()
      .from(pulsePurchases)
      .where(and(eq(pulsePurchases.sessionId, sessionId), eq(pulsePurchases.provider, 'dev')))
      .limit(1);
    if (!purchase) throw notFound();
    const session = provider.session(sessionId);
    return {
      purchase,
      email: session?.request.email ?? '',
      successUrl: session?.request.successUrl ?? '/pulse/retour?statut=ok',
      cancelUrl: session?.request.cancelUrl ?? '/pulse/retour?statut=annule',
    };
  };

  const noStore = { 'cache-control': 'no-store' };

  app.get('/dev/checkout/:id', { schema: { params } }, async (request, reply) => {
    const { purchase, email, successUrl, cancelUrl } = await load(request.params.id);
    reply.headers(noStore).type('text/html; charset=utf-8');
    if (purchase.status !== 'pending') return reply.send(closedPage(successUrl));
    return reply.send(formPage(request.params.id, purchase, email, cancelUrl));
  });

  /** Pays: the event Stripe would send, signed and delivered to the webhook route. */
  const complete = async (sessionId: string) => {
    const { purchase } = await load(sessionId);
    const event = paidEvent(sessionId, purchase, ctx.now());
    const payload = JSON.stringify(event);
    const res = await root.inject({
      method: 'POST',
      url: WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', 'stripe-signature': provider.sign(payload) },
      payload,
    });
    if (res.statusCode !== 200) throw new Error(`dev webhook answered ${res.statusCode}: ${res.body}`);
  };

  app.post('/dev/checkout/:id', { schema: { params, body: cardForm } }, async (request, reply) => {
    const { purchase, email, successUrl, cancelUrl } = await load(request.params.id);
    reply.headers(noStore).type('text/html; charset=utf-8');
    if (purchase.status !== 'pending') return reply.send(closedPage(successUrl));
    const card = request.body.card.replace(/[\s-]/g, '');
    const again = (error: string) =>
      reply.code(402).send(formPage(request.params.id, purchase, email, cancelUrl, error, request.body));
    if (!(Object.values(DEV_CARDS) as string[]).includes(card)) return again(TEXT.unknownCard);
    if (!expiryIsFuture(request.body.expiry, ctx.now())) return again(TEXT.badExpiry);
    if (!/^\d{3,4}$/.test(request.body.cvc.trim())) return again(TEXT.badCvc);
    if (card === DEV_CARDS.declined) return again(TEXT.declined);
    if (card === DEV_CARDS.confirm) return reply.send(confirmPage(request.params.id, purchase));
    await complete(request.params.id);
    return reply.code(303).header('location', successUrl).send();
  });

  app.post('/dev/checkout/:id/confirm', { schema: { params, body: confirmForm } }, async (request, reply) => {
    const { purchase, email, successUrl, cancelUrl } = await load(request.params.id);
    reply.headers(noStore).type('text/html; charset=utf-8');
    if (purchase.status !== 'pending') return reply.send(closedPage(successUrl));
    if (request.body.decision === 'refuse')
      return reply.code(402).send(formPage(request.params.id, purchase, email, cancelUrl, TEXT.authFailed));
    await complete(request.params.id);
    return reply.code(303).header('location', successUrl).send();
  });
}
