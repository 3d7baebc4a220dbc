/**
 * Notices of illegal content (DSA Art. 16) by anyone. A notice counts once its notifier's e-mail
 * is confirmed: a member's at once, a visitor's when the mailed link is opened (within
 * DSA_CONFIRM_HOURS). Counted, it joins the reports queue as a post_reports row with no member
 * reporter, reason 'illegal', that never counts toward hiding the post (threshold.ts is reports' own).
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lte } from 'drizzle-orm';
import { HOUR, reportReasonLabel } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { dsaNotices, postReports } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { enforce } from '../../policies/actor.ts';
import { mayNotify } from '../../policies/reports.ts';
import { findReportedPost } from '../reports/data.ts';
import { snapshotOf } from '../reports/service.ts';

export const DSA_CONFIRM_HOURS = 24;

export type DsaNotice = typeof dsaNotices.$inferSelect;

export interface NoticeFields {
  explanation: string;
  location: string;
  name: string;
  email: string;
}

/** Only its hash is stored: a read of the table confirms nothing. */
const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Puts a confirmed notice in the reports queue. */
async function enqueue(db: Db, notice: DsaNotice): Promise<void> {
  await db.insert(postReports).values({
    postId: notice.postId,
    postAuthorId: notice.postAuthorId,
    reportedBy: null,
    dsaNoticeId: notice.id,
    reasonKey: 'illegal',
    reason: reportReasonLabel('illegal'),
    description: null,
    postSnapshot: notice.postSnapshot,
    countsTowardHiding: false,
    createdAt: notice.confirmedAt ?? notice.createdAt,
  });
}

/**
 * Stores the notice about `postId` (404 when it is not live; 403 on a member's own post). With
 * `confirmed` it is queued at once; otherwise the token to mail is returned.
 */
export async function recordNotice(
  db: Db,
  postId: string,
  fields: NoticeFields,
  notifier: { id: string | null; confirmed: boolean },
  now: Date,
): Promise<{ notice: DsaNotice; token: string | null }> {
  const post = await findReportedPost(db, postId);
  if (!post) throw notFound('post_not_found');
  enforce(mayNotify(notifier.id ? { userId: notifier.id } : null, post));
  // Unconfirmed notices past their link's life are dropped here, so they cannot pile up.
  await db
    .delete(dsaNotices)
    .where(
      and(
        isNull(dsaNotices.confirmedAt),
        lte(dsaNotices.createdAt, new Date(now.getTime() - DSA_CONFIRM_HOURS * HOUR)),
      ),
    );
  const token = notifier.confirmed ? null : randomBytes(32).toString('base64url');
  return db.transaction(async (tx) => {
    const [notice] = await tx
      .insert(dsaNotices)
      .values({
        postId,
        postAuthorId: post.userId,
        notifierId: notifier.id,
        ...fields,
        postSnapshot: snapshotOf(post),
        confirmTokenHash: token ? hashToken(token) : null,
        createdAt: now,
        confirmedAt: token ? null : now,
      })
      .returning();
    if (!notice) throw new Error('notice not stored');
    if (!token) await enqueue(tx, notice);
    return { notice, token };
  });
}

/** Confirms the notice the mailed token names and queues it; 404 for an unknown, used or expired token. */
export async function confirmNotice(db: Db, token: string, now: Date): Promise<DsaNotice> {
  return db.transaction(async (tx) => {
    const [notice] = await tx
      .update(dsaNotices)
      .set({ confirmedAt: now, confirmTokenHash: null })
      .where(
        and(
          eq(dsaNotices.confirmTokenHash, hashToken(token)),
          isNull(dsaNotices.confirmedAt),
          gt(dsaNotices.createdAt, new Date(now.getTime() - DSA_CONFIRM_HOURS * HOUR)),
        ),
      )
      .returning();
    if (!notice) throw notFound('dsa_confirm_invalid');
    await enqueue(tx, notice);
    return notice;
  });
}

/** The notices a decision closed, for their notifiers' mails. */
export async function noticesOfDecision(db: Db, decisionId: string): Promise<DsaNotice[]> {
  const rows = await db
    .select({ notice: dsaNotices })
    .from(postReports)
    .innerJoin(dsaNotices, eq(dsaNotices.id, postReports.dsaNoticeId))
    .where(eq(postReports.decisionId, decisionId));
  return rows.map((r) => r.notice);
}
