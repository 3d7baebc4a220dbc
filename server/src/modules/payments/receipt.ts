/** The e-mail receipt of a credited purchase: amount, quantity and date, in French. */
import { MESSAGES, PULSE_PRICE_LABEL, euros, frDateTime, t } from '@moodmap/core';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import type { PurchaseRow } from './credits.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function receiptMail(to: string, name: string, purchase: PurchaseRow): MailMessage {
  const date = purchase.paidAt ?? purchase.createdAt;
  const lines = [
    t('mail_receipt_quantity', { count: purchase.quantity }),
    t('mail_receipt_unit', { price: PULSE_PRICE_LABEL }),
    t('mail_receipt_amount', { amount: euros(purchase.amountCents) }),
    // Paris time: the product is French, and a server's own zone says nothing to the buyer.
    t('mail_receipt_date', { date: frDateTime(date, 'Europe/Paris') }),
    t('mail_receipt_reference', { reference: purchase.id }),
  ];
  const greeting = t('mail_greeting', { name });
  const text = [
    greeting,
    '',
    MESSAGES.mail_receipt_intro,
    '',
    ...lines,
    '',
    MESSAGES.mail_receipt_note,
    '',
    MESSAGES.mail_signature,
    '',
  ].join('\n');
  const html = `<!doctype html>
<html lang="fr"><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(MESSAGES.mail_receipt_intro)}</p>
<table style="border-collapse:collapse;margin:12px 0">${lines.map((l) => `<tr><td style="padding:4px 0">${escapeHtml(l)}</td></tr>`).join('')}</table>
<p style="font-size:13px;color:#6b7280">${escapeHtml(MESSAGES.mail_receipt_note)}</p>
<p>${escapeHtml(MESSAGES.mail_signature)}</p>
</body></html>`;
  return { to, subject: MESSAGES.mail_receipt_subject, text, html };
}
