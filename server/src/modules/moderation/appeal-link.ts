/**
 * Appeals without signing in (DSA Art. 20): a banned author cannot sign in, yet may
 * appeal once within 6 months. The statement of reasons they are mailed carries a link whose
 * token is the decision's id and an HMAC of it under a key of its own (auth/tokens.ts): only
 * the server could have written it, it names one decision, and the appeal it files is the same
 * single appeal as the in-app button's (decisions.ts fileAppeal), so a replay files nothing more.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppealLinkAnswer } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { moderationAppeals, moderationDecisions } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { canAppeal, noticeText } from './notices.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sign = (key: Buffer, decisionId: string) => createHmac('sha256', key).update(`appeal:${decisionId}`).digest('base64url');

export function appealLinkToken(key: Buffer, decisionId: string): string {
  return `${decisionId}.${sign(key, decisionId)}`;
}

/** The decision a token names, or 404 'Ce lien de recours n'est pas valide'. */
export function decisionOfToken(key: Buffer, token: string): string {
  // Exactly `<id>.<mac>`: a token with more parts is not one the server wrote.
  const parts = token.split('.');
  const [decisionId = '', mac = ''] = parts.length === 2 ? parts : [];
  const expected = Buffer.from(sign(key, decisionId));
  const given = Buffer.from(mac);
  if (!UUID.test(decisionId) || given.length !== expected.length || !timingSafeEqual(given, expected)) throw notFound('appeal_link_invalid');
  return decisionId;
}

/** The statement as the author's notice words it, and whether the link may still file an appeal. */
export async function readAppealLink(db: Db, decisionId: string, now: Date): Promise<{ answer: AppealLinkAnswer; authorId: string }> {
  const [row] = await db.select({ decision: moderationDecisions, appeal: moderationAppeals }).from(moderationDecisions)
    .leftJoin(moderationAppeals, eq(moderationAppeals.decisionId, moderationDecisions.id))
    .where(eq(moderationDecisions.id, decisionId)).limit(1);
  const authorId = row?.decision.authorId;
  if (!row || !authorId) throw notFound('appeal_link_invalid');
  const { decision, appeal } = row;
  const appealStatus = (appeal?.status as AppealLinkAnswer['appealStatus']) ?? null;
  return { answer: { ...noticeText('statement', decision, appeal, now), canAppeal: canAppeal(decision, appeal, now), appealStatus }, authorId };
}
