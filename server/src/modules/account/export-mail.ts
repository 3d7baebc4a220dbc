/** The e-mail telling a member their data archive is ready (texts from the catalogue). */
import { MESSAGES, frDateTime, t } from '@moodmap/core';
import type { MailMessage } from '../../adapters/mail/mailer.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function exportReadyMail(to: string, name: string, expiresAt: Date, profileLink: string): MailMessage {
  const greeting = t('mail_greeting', { name });
  // Paris time: the product is French, and a server's own zone says nothing to the reader.
  const intro = t('mail_export_intro', { date: frDateTime(expiresAt, 'Europe/Paris') });
  const text = [greeting, '', intro, '', profileLink, '', MESSAGES.mail_signature, ''].join('\n');
  const html = `<!doctype html>
<html lang="fr"><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(profileLink)}" style="display:inline-block;background:#0CC0DF;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(MESSAGES.mail_export_action)}</a></p>
<p>${escapeHtml(MESSAGES.mail_signature)}</p>
</body></html>`;
  return { to, subject: MESSAGES.mail_export_subject, text, html };
}
