/**
 * The notifier's three e-mails (DSA Art. 16(4)-(5)): the confirmation link, the receipt once the
 * notice counts, and the decision with its reasons. A mail failure never undoes what was stored.
 */
import { MESSAGES, MODERATION_REASON_KEYS, moderationReasonLabel, t } from '@moodmap/core';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import type { AppContext } from '../../context.ts';
import type { moderationDecisions } from '../../db/schema.ts';
import { noticesOfDecision, type DsaNotice } from './service.ts';

export const DSA_CONFIRM_PATH = '/signalement-illicite/confirmer';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function render(to: string, subject: string, name: string, lines: string[]): MailMessage {
  const all = [t('mail_greeting', { name }), ...lines, MESSAGES.mail_signature];
  return {
    to,
    subject,
    text: all.join('\n\n'),
    html: `<!doctype html><html lang="fr"><body>${all.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</body></html>`,
  };
}

const send = (ctx: AppContext, mail: MailMessage) => ctx.mailer.send(mail).catch(() => {});

export function sendConfirmLink(ctx: AppContext, notice: DsaNotice, token: string): Promise<void> {
  const link = `${ctx.config.publicUrl}${DSA_CONFIRM_PATH}?token=${token}`;
  return send(
    ctx,
    render(notice.email, MESSAGES.mail_dsa_confirm_subject, notice.name, [
      MESSAGES.mail_dsa_confirm_intro,
      link,
      MESSAGES.mail_dsa_confirm_expiry,
      MESSAGES.mail_ignore,
    ]),
  );
}

export function sendReceipt(ctx: AppContext, notice: DsaNotice): Promise<void> {
  return send(
    ctx,
    render(notice.email, MESSAGES.mail_dsa_receipt_subject, notice.name, [
      t('mail_dsa_receipt_text', { post: notice.location }),
    ]),
  );
}

/** Each notifier whose notice the decision closed gets the decision and its reasons. */
export async function sendDecisions(ctx: AppContext, decision: typeof moderationDecisions.$inferSelect): Promise<void> {
  const notices = await noticesOfDecision(ctx.database.db, decision.id);
  const reason = moderationReasonLabel(MODERATION_REASON_KEYS.find((k) => k === decision.reasonKey) ?? 'other');
  // A notifier who deleted their account left no address.
  for (const notice of notices.filter((n) => n.email !== '')) {
    const post = notice.location;
    const lines = [
      decision.action === 'dismiss' ? t('mail_dsa_decision_kept', { post }) : t('mail_dsa_decision_removed', { post }),
      t('mail_dsa_decision_reason', { reason }),
      ...(decision.note ? [t('mail_dsa_decision_note', { note: decision.note })] : []),
      MESSAGES.mail_dsa_decision_redress,
    ];
    await send(ctx, render(notice.email, MESSAGES.mail_dsa_decision_subject, notice.name, lines));
  }
}
