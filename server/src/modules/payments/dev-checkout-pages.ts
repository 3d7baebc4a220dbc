/**
 * The dev checkout's HTML pages (dev-checkout.ts): the card form, the confirmation step and the
 * closed session, in French, clearly marked as a test payment.
 */
import { PULSE_PRICE_LABEL, euros } from '@moodmap/core';

interface Purchase {
  quantity: number;
  amountCents: number;
}

/** The card form's fields, sent back into the form when it is shown again with an error. */
export interface CardFields {
  card: string;
  expiry: string;
  cvc: string;
  name: string;
}

/** The page's own texts: it stands in for the provider's page, not for the app's screens. */
export const TEXT = {
  title: 'Paiement de test',
  banner: 'PAIEMENT DE TEST — aucun débit réel. Cette page remplace le prestataire de paiement en développement.',
  cards:
    'Cartes de test : 4242 4242 4242 4242 (acceptée), 4000 0000 0000 0002 (refusée), 4000 0025 0000 3155 (confirmation demandée). Toute date d’expiration future et tout CVC.',
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

const fill = (text: string, params: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? ''));
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

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

const summary = (purchase: Purchase) => `<h1>MoodMap · Pulse</h1>
<p class="amount" data-testid="dev-checkout-amount">${escapeHtml(euros(purchase.amountCents))}</p>
<p class="muted">${escapeHtml(fill(TEXT.summary, { count: purchase.quantity, price: PULSE_PRICE_LABEL }))}</p>`;

export const formPage = (
  sessionId: string,
  purchase: Purchase,
  email: string,
  cancelUrl: string,
  error?: string,
  values: Partial<CardFields> = {},
) =>
  html(`<div class="card">
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

export const closedPage = (successUrl: string) =>
  html(
    `<div class="card"><p>${escapeHtml(TEXT.closed)}</p><a class="secondary" href="${escapeHtml(successUrl)}">OK</a></div>`,
  );

export const confirmPage = (sessionId: string, purchase: Purchase) =>
  html(`<div class="card">${summary(purchase)}<h1>${escapeHtml(TEXT.confirmTitle)}</h1>
<p class="muted">${escapeHtml(fill(TEXT.confirmText, { amount: euros(purchase.amountCents) }))}</p>
<form method="post" action="/dev/checkout/${escapeHtml(sessionId)}/confirm">
<button type="submit" name="decision" value="confirm">${escapeHtml(TEXT.confirm)}</button>
<button type="submit" name="decision" value="refuse" class="secondary">${escapeHtml(TEXT.refuse)}</button>
</form></div>`);
