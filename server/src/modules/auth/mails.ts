/** The two account e-mails, in French, as plain text and HTML (texts from the catalogue). */
import { MESSAGES, t } from '@moodmap/core';
import type { MailMessage } from '../../adapters/mail/mailer.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

interface LinkMail {
  to: string;
  name: string;
  subject: string;
  intro: string;
  action: string;
  expiry: string;
  link: string;
}

function render(m: LinkMail): MailMessage {
  const greeting = t('mail_greeting', { name: m.name });
  const text = [
    greeting,
    '',
    m.intro,
    '',
    m.link,
    '',
    m.expiry,
    MESSAGES.mail_ignore,
    '',
    MESSAGES.mail_signature,
    '',
  ].join('\n');
  const html = `<!doctype html>
<html lang="fr"><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(m.intro)}</p>
<p><a href="${escapeHtml(m.link)}" style="display:inline-block;background:#0CC0DF;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(m.action)}</a></p>
<p style="font-size:13px;color:#6b7280">${escapeHtml(m.link)}</p>
<p>${escapeHtml(m.expiry)}<br>${escapeHtml(MESSAGES.mail_ignore)}</p>
<p>${escapeHtml(MESSAGES.mail_signature)}</p>
</body></html>`;
  return { to: m.to, subject: m.subject, text, html };
}

export function confirmationMail(to: string, name: string, link: string): MailMessage {
  return render({
    to,
    name,
    link,
    subject: MESSAGES.mail_confirm_subject,
    intro: MESSAGES.mail_confirm_intro,
    action: MESSAGES.mail_confirm_action,
    expiry: MESSAGES.mail_confirm_expiry,
  });
}

export function recoveryMail(to: string, name: string, link: string): MailMessage {
  return render({
    to,
    name,
    link,
    subject: MESSAGES.mail_recovery_subject,
    intro: MESSAGES.mail_recovery_intro,
    action: MESSAGES.mail_recovery_action,
    expiry: MESSAGES.mail_recovery_expiry,
  });
}
