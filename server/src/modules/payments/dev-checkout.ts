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
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PULSE_CURRENCY, PULSE_PRICE_LABEL, euros } from '@moodmap/core';
import type { DevPaymentProvider } from '../../adapters/payments/index.ts';
import type { AppContext } from '../../context.ts';
import { pulsePurchases } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { WEBHOOK_PATH } from './webhook.ts';

export const DEV_CARDS = { success: '4242424242424242', declined: '4000000000000002', confirm: '4000002500003155' } as const;

/** The page's own texts: it stands in for the provider's page, not for the app's screens. */
const TEXT = {
  title: 'Paiement de test',
  banner: 'PAIEMENT DE TEST — aucun débit réel. Cette page remplace le prestataire de paiement en développement.',
  cards: 'Cartes de test : 4242 4242 4242 4242 (acceptée), 4000 0000 0000 0002 (refusée), 4000 0025 0000 3155 (confirmation demandée). Toute date d’expiration future et tout CVC.',
  email: 'E-mail',
  card: 'Numéro de carte',
  expiry: 'Expiration (MM/AA)',
  cvc: 'CVC',
  name: 'Nom du titulaire',
  pay: 'Payer {amount}',
  cancel: 'Annuler et revenir',
  declined: 'Votre carte a été refusée. Aucun montant n’a été débité.',
  unknownCard: 'Numéro de carte non reconnu : utilisez une carte de test ci-dessus.',
  badExpiry: 'Date d’expiration invalide ou passée.',
  badCvc: 'CVC invalide (3 ou 4 chiffres).',
  confirmTitle: 'Confirmation du paiement',
  confirmText: 'Votre banque demande une confirmation (3-D Secure de test). Confirmez-vous ce paiement de {amount} ?',
  confirm: 'Confirmer le paiement',
  refuse: 'Refuser',
  authFailed: 'La confirmation a échoué. Aucun montant n’a été débité.',
  closed: 'Cette session de paiement est terminée.',
  summary: '{count} crédit(s) Pulse × {price}',
} as const;

const fill = (text: string, params: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? ''));
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

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

export default async function devCheckoutRoutes(root: FastifyInstance, { ctx, provider }: { ctx: AppContext; provider: DevPaymentProvider }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  // A plain HTML form posts urlencoded fields; only this plugin's routes read them.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
  });

  const load = async (sessionId: string) => {
    const [purchase] = await db.select().from(pulsePurchases)
      .where(and(eq(pulsePurchases.sessionId, sessionId), eq(pulsePurchases.provider, 'dev'))).limit(1);
    if (!purchase) throw notFound();
    const session = provider.session(sessionId);
    return {
      purchase,
      email: session?.request.email ?? '',
      successUrl: session?.request.successUrl ?? '/pulse/retour?statut=ok',
      cancelUrl: session?.request.cancelUrl ?? '/pulse/retour?statut=annule',
    };
  };

  const html = (body: string) => `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(TEXT.title)} — MoodMap</title>
<style>
:root{color-scheme:light dark;--bg:#f1f5f9;--card:#fff;--ink:#0f172a;--muted:#64748b;--line:#cbd5e1;--brand:#0CC0DF}
@media (prefers-color-scheme:dark){:root{--bg:#0b1120;--card:#111827;--ink:#f8fafc;--muted:#94a3b8;--line:#334155}}
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--ink)}
.test{background:repeating-linear-gradient(45deg,#f59e0b,#f59e0b 12px,#fbbf24 12px,#fbbf24 24px);color:#111827;font-weight:800;text-align:center;padding:10px 12px;font-size:13px;letter-spacing:.02em}
main{max-width:440px;margin:24px auto;padding:0 16px}
.card{background:var(--card);border-radius:16px;padding:22px;box-shadow:0 10px 30px rgba(15,23,42,.12);border:1px solid var(--line)}
h1{font-size:20px;margin:0 0 4px}.amount{font-size:30px;font-weight:800;margin:8px 0 2px}.muted{color:var(--muted);font-size:13px;line-height:1.45}
label{display:block;font-size:13px;font-weight:600;margin:14px 0 6px}
input{width:100%;font:inherit;font-size:16px;padding:11px 12px;border-radius:10px;border:1px solid var(--line);background:transparent;color:inherit}
.row{display:flex;gap:12px}.row>div{flex:1}
button{width:100%;margin-top:18px;font:inherit;font-weight:700;font-size:16px;padding:13px;border:0;border-radius:12px;background:var(--brand);color:#fff;cursor:pointer}
button.secondary,a.secondary{display:block;text-align:center;background:transparent;color:var(--muted);border:1px solid var(--line);margin-top:10px;padding:11px;border-radius:12px;text-decoration:none;font-size:14px}
.error{background:#fee2e2;color:#991b1b;border-radius:10px;padding:10px 12px;margin-top:14px;font-size:14px;font-weight:600}
</style></head><body><div class="test" role="note" data-testid="dev-checkout-banner">${escapeHtml(TEXT.banner)}</div><main>${body}</main></body></html>`;

  const summary = (purchase: { quantity: number; amountCents: number }) => `<h1>MoodMap · Pulse</h1>
<p class="amount" data-testid="dev-checkout-amount">${escapeHtml(euros(purchase.amountCents))}</p>
<p class="muted">${escapeHtml(fill(TEXT.summary, { count: purchase.quantity, price: PULSE_PRICE_LABEL }))}</p>`;

  const formPage = (sessionId: string, purchase: { quantity: number; amountCents: number }, email: string, cancelUrl: string, error?: string, values: Partial<z.infer<typeof cardForm>> = {}) => html(`<div class="card">
${summary(purchase)}
<p class="muted">${escapeHtml(TEXT.cards)}</p>
<form method="post" action="/dev/checkout/${escapeHtml(sessionId)}" autocomplete="off">
<label for="email">${escapeHtml(TEXT.email)}</label><input id="email" value="${escapeHtml(email)}" readonly>
<label for="card">${escapeHtml(TEXT.card)}</label><input id="card" name="card" inputmode="numeric" placeholder="4242 4242 4242 4242" value="${escapeHtml(values.card ?? '')}" required>
<div class="row"><div><label for="expiry">${escapeHtml(TEXT.expiry)}</label><input id="expiry" name="expiry" placeholder="12/34" value="${escapeHtml(values.expiry ?? '')}" required></div>
<div><label for="cvc">${escapeHtml(TEXT.cvc)}</label><input id="cvc" name="cvc" inputmode="numeric" placeholder="123" required></div></div>
<label for="name">${escapeHtml(TEXT.name)}</label><input id="name" name="name" value="${escapeHtml(values.name ?? '')}">
${error ? `<p class="error" role="alert" data-testid="dev-checkout-error">${escapeHtml(error)}</p>` : ''}
<button type="submit">${escapeHtml(fill(TEXT.pay, { amount: euros(purchase.amountCents) }))}</button>
</form>
<a class="secondary" href="${escapeHtml(cancelUrl)}">${escapeHtml(TEXT.cancel)}</a>
</div>`);

  const closedPage = (successUrl: string) => html(`<div class="card"><p>${escapeHtml(TEXT.closed)}</p><a class="secondary" href="${escapeHtml(successUrl)}">OK</a></div>`);

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
    const event = {
      id: `evt_dev_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(ctx.now().getTime() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'checkout.session.completed',
      data: {
        object: {
          id: sessionId,
          object: 'checkout.session',
          mode: 'payment',
          status: 'complete',
          payment_status: 'paid',
          amount_subtotal: purchase.amountCents,
          amount_total: purchase.amountCents,
          currency: PULSE_CURRENCY,
          client_reference_id: purchase.userId,
          payment_intent: `pi_dev_${randomBytes(12).toString('hex')}`,
          metadata: { user_id: purchase.userId, quantity: String(purchase.quantity), purchase_id: purchase.id },
        },
      },
    };
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
    const again = (error: string) => reply.code(402).send(formPage(request.params.id, purchase, email, cancelUrl, error, request.body));
    if (!(Object.values(DEV_CARDS) as string[]).includes(card)) return again(TEXT.unknownCard);
    if (!expiryIsFuture(request.body.expiry, ctx.now())) return again(TEXT.badExpiry);
    if (!/^\d{3,4}$/.test(request.body.cvc.trim())) return again(TEXT.badCvc);
    if (card === DEV_CARDS.declined) return again(TEXT.declined);
    if (card === DEV_CARDS.confirm) {
      return reply.send(html(`<div class="card">${summary(purchase)}<h1>${escapeHtml(TEXT.confirmTitle)}</h1>
<p class="muted">${escapeHtml(fill(TEXT.confirmText, { amount: euros(purchase.amountCents) }))}</p>
<form method="post" action="/dev/checkout/${escapeHtml(request.params.id)}/confirm">
<button type="submit" name="decision" value="confirm">${escapeHtml(TEXT.confirm)}</button>
<button type="submit" name="decision" value="refuse" class="secondary">${escapeHtml(TEXT.refuse)}</button>
</form></div>`));
    }
    await complete(request.params.id);
    return reply.code(303).header('location', successUrl).send();
  });

  app.post('/dev/checkout/:id/confirm', { schema: { params, body: confirmForm } }, async (request, reply) => {
    const { purchase, email, successUrl, cancelUrl } = await load(request.params.id);
    reply.headers(noStore).type('text/html; charset=utf-8');
    if (purchase.status !== 'pending') return reply.send(closedPage(successUrl));
    if (request.body.decision === 'refuse') return reply.code(402).send(formPage(request.params.id, purchase, email, cancelUrl, TEXT.authFailed));
    await complete(request.params.id);
    return reply.code(303).header('location', successUrl).send();
  });
}
