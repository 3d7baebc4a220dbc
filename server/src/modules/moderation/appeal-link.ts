/**
 * Appeals without signing in (DSA Art. 20): a banned author cannot sign in, yet may
 * appeal once within 6 months. The statement of reasons they are mailed carries a link whose
 * token (appeal-token.ts) only the server could have written and names one decision; the appeal
 * it files is the same single appeal as the in-app button's (decisions.ts fileAppeal), so a
 * replay files nothing more.
 */
import { eq } from 'drizzle-orm';
import type { AppealLinkAnswer } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { moderationAppeals, moderationDecisions } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { canAppeal } from '../../policies/moderation.ts';
import { noticeText } from './notices.ts';

/** The statement as the author's notice words it, and whether the link may still file an appeal. */
export async function readAppealLink(
  db: Db,
  decisionId: string,
  now: Date,
): Promise<{ answer: AppealLinkAnswer; authorId: string }> {
  const [row] = await db
    .select({ decision: moderationDecisions, appeal: moderationAppeals })
    .from(moderationDecisions)
    .leftJoin(moderationAppeals, eq(moderationAppeals.decisionId, moderationDecisions.id))
    .where(eq(moderationDecisions.id, decisionId))
    .limit(1);
  const authorId = row?.decision.authorId;
  if (!row || !authorId) throw notFound('appeal_link_invalid');
  const { decision, appeal } = row;
  const appealStatus = (appeal?.status as AppealLinkAnswer['appealStatus']) ?? null;
  return {
    answer: {
      ...noticeText('statement', decision, appeal, now),
      canAppeal: canAppeal(decision, appeal, now),
      appealStatus,
    },
    authorId,
  };
}
