/**
 * In-app notices and their e-mails (DSA Art. 16, 17, 20): the reporter is told the
 * outcome, the author gets a statement of reasons (what, why, which rule, how to appeal), and
 * the appeal's outcome. The French text is written from the decision when read, so a notice
 * always tells the decision's current state (an appeal filed, a reversal).
 */
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import {
  DAY,
  MESSAGES,
  moderationActionLabel,
  moderationReasonLabel,
  t,
  type ModerationAction,
  type ModerationNotice,
  type ModerationReasonKey,
} from '@moodmap/core';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { moderationAppeals, moderationDecisions, moderationNotices, users } from '../../db/schema.ts';
import { canAppeal } from '../../policies/moderation.ts';
import { appealLinkToken } from './appeal-token.ts';
import { frenchDateTime } from './restrictions.ts';

const NOTICES_MAX = 50;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
type Decision = typeof moderationDecisions.$inferSelect;
type Appeal = typeof moderationAppeals.$inferSelect;
type Kind = ModerationNotice['kind'];

function statementLines(d: Decision, now: Date, appeal: Appeal | null): string[] {
  const reason = moderationReasonLabel(d.reasonKey as ModerationReasonKey);
  const days = d.suspendDays ? ` (${t('mod_suspend_days', { days: d.suspendDays })})` : '';
  const lines = [
    t('notice_statement_what', { action: moderationActionLabel(d.action as ModerationAction) + days }),
    t('notice_statement_why', { reason }),
    t('notice_statement_rule', { reason }),
  ];
  if (d.note) lines.push(t('notice_statement_note', { note: d.note }));
  if (d.action === 'suspend' && d.suspendDays && !d.reversedAt) {
    lines.push(
      t('notice_statement_suspended', { date: frenchDateTime(new Date(d.createdAt.getTime() + d.suspendDays * DAY)) }),
    );
  }
  if (canAppeal(d, appeal, now)) lines.push(t('notice_statement_appeal', { date: frenchDateTime(d.appealUntil) }));
  if (appeal?.status === 'open') lines.push(MESSAGES.appeal_pending);
  return lines;
}

export function noticeText(
  kind: Kind,
  d: Decision,
  appeal: Appeal | null,
  now: Date,
): { title: string; lines: string[] } {
  if (kind === 'report_outcome') {
    return {
      title: MESSAGES.notice_report_outcome_title,
      lines: [
        d.action === 'dismiss'
          ? MESSAGES.notice_report_outcome_dismissed
          : t('notice_report_outcome_actioned', { reason: moderationReasonLabel(d.reasonKey as ModerationReasonKey) }),
      ],
    };
  }
  if (kind === 'appeal_outcome') {
    return {
      title: MESSAGES.notice_appeal_outcome_title,
      lines: [appeal?.status === 'reversed' ? MESSAGES.notice_appeal_reversed : MESSAGES.notice_appeal_upheld],
    };
  }
  return { title: MESSAGES.notice_statement_title, lines: statementLines(d, now, appeal) };
}

export async function listNotices(
  db: Db,
  userId: string,
  now: Date,
): Promise<{ notices: ModerationNotice[]; unread: number }> {
  const rows = await db
    .select({ notice: moderationNotices, decision: moderationDecisions, appeal: moderationAppeals })
    .from(moderationNotices)
    .innerJoin(moderationDecisions, eq(moderationDecisions.id, moderationNotices.decisionId))
    .leftJoin(moderationAppeals, eq(moderationAppeals.decisionId, moderationDecisions.id))
    .where(eq(moderationNotices.userId, userId))
    .orderBy(desc(moderationNotices.createdAt), desc(moderationNotices.id))
    .limit(NOTICES_MAX);
  const notices = rows.map(({ notice, decision, appeal }): ModerationNotice => {
    const kind = notice.kind as Kind;
    return {
      id: notice.id,
      kind,
      ...noticeText(kind, decision, appeal, now),
      createdAt: notice.createdAt.toISOString(),
      read: notice.readAt !== null,
      decisionId: decision.id,
      canAppeal: kind === 'statement' && canAppeal(decision, appeal, now),
      appealStatus:
        kind === 'statement' || kind === 'appeal_outcome'
          ? ((appeal?.status as ModerationNotice['appealStatus']) ?? null)
          : null,
    };
  });
  return { notices, unread: notices.filter((n) => !n.read).length };
}

export async function markNoticesRead(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(moderationNotices)
    .set({ readAt: now })
    .where(and(eq(moderationNotices.userId, userId), isNull(moderationNotices.readAt)));
}

/** The same notice by e-mail to each of `userIds` (after commit; a mail failure never undoes a decision). */
export async function mailNotice(
  ctx: AppContext,
  userIds: string[],
  kind: Kind,
  decision: Decision,
  appeal: Appeal | null,
): Promise<void> {
  if (userIds.length === 0) return;
  const recipients = await ctx.database.db.select({ email: users.email }).from(users).where(inArray(users.id, userIds));
  const now = ctx.now();
  const { title, lines } = noticeText(kind, decision, appeal, now);
  // The statement's appeal, also from the mail: a banned author cannot sign in to press the button.
  if (kind === 'statement' && canAppeal(decision, appeal, now)) {
    lines.push(
      t('mail_appeal_link', {
        link: `${ctx.config.publicUrl}/appeal?token=${appealLinkToken(ctx.auth.keys.appeal, decision.id)}`,
      }),
    );
  }
  for (const { email } of recipients) {
    const mail: MailMessage = {
      to: email,
      subject: `${MESSAGES.mail_moderation_subject} — ${title}`,
      text: [title, '', ...lines].join('\n'),
      html: `<h1>${escapeHtml(title)}</h1>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}`,
    };
    await ctx.mailer.send(mail).catch(() => {});
  }
}
