/**
 * A moderator's decision on a reported post, and an appeal's outcome. Each runs in
 * one transaction that locks what it changes (the post's open reports; the appeal), so two
 * moderators deciding at once cannot both act. Who may decide or appeal is policies/moderation.ts's.
 * What each decision does is in docs/moderation.md.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  APPEAL_WINDOW_DAYS,
  DAY,
  moderationActionLabel,
  moderationReasonLabel,
  type DecisionInput,
  type ModerationAction,
  type ModerationReasonKey,
} from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import {
  moderationAppeals,
  moderationDecisions,
  moderationNotices,
  postReports,
  publications,
  users,
} from '../../db/schema.ts';
import { conflict, notFound } from '../../errors.ts';
import { enforce, type Actor } from '../../policies/actor.ts';
import { appealAlready, mayAppeal, mayDecide, mayDecideAppeal } from '../../policies/moderation.ts';
import { getRole } from '../auth/users.ts';

export interface DecisionInputParsed {
  action: ModerationAction;
  reason: ModerationReasonKey;
  note: string;
  days?: number;
}
export type { DecisionInput };

export interface DecisionOutcome {
  decision: typeof moderationDecisions.$inferSelect;
  reporterIds: string[];
  /** The post left the map (it was on it) or came back (it was pending review). */
  hidden: { id: string; userId: string; latitude: number; longitude: number } | null;
  restoredPostId: string | null;
}

/** Decides on every open report of `postId`; 404 when it has none, 403 when mayDecide refuses. `decider`: as the staff guard read them. */
export async function decide(
  db: Db,
  decider: Actor,
  postId: string,
  input: DecisionInputParsed,
  now: Date,
): Promise<DecisionOutcome> {
  const moderatorId = decider.userId;
  return db.transaction(async (tx) => {
    const reports = await tx
      .select({
        id: postReports.id,
        reportedBy: postReports.reportedBy,
        authorId: postReports.postAuthorId,
        snapshot: postReports.postSnapshot,
      })
      .from(postReports)
      .where(and(eq(postReports.postId, postId), eq(postReports.status, 'open')))
      .orderBy(postReports.createdAt)
      .for('update');
    const first = reports[0];
    if (!first) throw notFound('mod_no_open_reports');
    const authorRole = first.authorId ? await getRole(tx, first.authorId) : 'user';
    enforce(mayDecide(decider, { authorId: first.authorId, authorRole }, input.action));
    const [post] = await tx
      .select({
        id: publications.id,
        userId: publications.userId,
        hiddenState: publications.hiddenState,
        latitude: publications.latitude,
        longitude: publications.longitude,
      })
      .from(publications)
      .where(eq(publications.id, postId))
      .for('update');

    const dismiss = input.action === 'dismiss';
    const [decision] = await tx
      .insert(moderationDecisions)
      .values({
        postId: post ? postId : null,
        authorId: first.authorId,
        moderatorId,
        action: input.action,
        suspendDays: input.action === 'suspend' ? (input.days ?? null) : null,
        reasonKey: input.reason,
        note: input.note || null,
        postSnapshot: first.snapshot,
        createdAt: now,
        // A dismissal is not a restriction: nothing to appeal.
        appealUntil: dismiss ? now : new Date(now.getTime() + APPEAL_WINDOW_DAYS * DAY),
      })
      .returning();
    await tx
      .update(postReports)
      .set({ status: dismiss ? 'dismissed' : 'actioned', decisionId: decision!.id })
      .where(
        inArray(
          postReports.id,
          reports.map((r) => r.id),
        ),
      );

    let hidden: DecisionOutcome['hidden'] = null;
    let restoredPostId: string | null = null;
    if (post) {
      if (dismiss && post.hiddenState === 'pending') {
        await tx.update(publications).set({ hiddenState: null }).where(eq(publications.id, postId));
        restoredPostId = postId;
      } else if (!dismiss) {
        await tx.update(publications).set({ hiddenState: 'removed' }).where(eq(publications.id, postId));
        if (post.hiddenState === null)
          hidden = { id: post.id, userId: post.userId, latitude: post.latitude, longitude: post.longitude };
      }
    }
    if (first.authorId && input.action === 'suspend') {
      const until = new Date(now.getTime() + (input.days ?? 1) * DAY);
      await tx
        .update(users)
        .set({
          suspendedUntil: sql`greatest(coalesce(${users.suspendedUntil}, ${until.toISOString()}::timestamptz), ${until.toISOString()}::timestamptz)`,
        })
        .where(eq(users.id, first.authorId));
    }
    if (first.authorId && input.action === 'ban') {
      await tx.update(users).set({ bannedAt: now }).where(eq(users.id, first.authorId));
    }

    // Notices of illegal content have no member reporter: their notifiers are mailed (dsa-notices/mails.ts).
    const reporterIds = [...new Set(reports.flatMap((r) => (r.reportedBy ? [r.reportedBy] : [])))];
    const notices = reporterIds.map((userId) => ({
      userId,
      kind: 'report_outcome',
      decisionId: decision!.id,
      createdAt: now,
    }));
    if (!dismiss && first.authorId)
      notices.push({ userId: first.authorId, kind: 'statement', decisionId: decision!.id, createdAt: now });
    if (notices.length > 0) await tx.insert(moderationNotices).values(notices);
    return { decision: decision!, reporterIds, hidden, restoredPostId };
  });
}

/** The author appeals once, within the window, a decision that restricted them (mayAppeal). */
export async function fileAppeal(db: Db, authorId: string, decisionId: string, statement: string, now: Date) {
  const [row] = await db
    .select({ decision: moderationDecisions, appealId: moderationAppeals.id })
    .from(moderationDecisions)
    .leftJoin(moderationAppeals, eq(moderationAppeals.decisionId, moderationDecisions.id))
    .where(eq(moderationDecisions.id, decisionId))
    .limit(1);
  if (!row) throw notFound();
  const { decision } = row;
  enforce(mayAppeal({ userId: authorId }, decision, row.appealId !== null, now));
  const [appeal] = await db
    .insert(moderationAppeals)
    .values({ decisionId, authorId, statement, createdAt: now })
    .onConflictDoNothing({ target: moderationAppeals.decisionId })
    .returning();
  // Filed meanwhile by another request.
  if (!appeal) throw appealAlready();
  return { appeal, decision };
}

export interface AppealOutcome {
  appeal: typeof moderationAppeals.$inferSelect;
  decision: typeof moderationDecisions.$inferSelect;
  restoredPostId: string | null;
}

/** Another moderator upholds or reverses; a reversal restores the post and lifts the restriction. */
export async function decideAppeal(
  db: Db,
  moderatorId: string,
  appealId: string,
  outcome: 'uphold' | 'reverse',
  note: string,
  now: Date,
): Promise<AppealOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ appeal: moderationAppeals, decision: moderationDecisions })
      .from(moderationAppeals)
      .innerJoin(moderationDecisions, eq(moderationDecisions.id, moderationAppeals.decisionId))
      .where(eq(moderationAppeals.id, appealId))
      .for('update');
    if (!row) throw notFound('mod_appeal_not_found');
    if (row.appeal.status !== 'open') throw conflict('mod_appeal_closed');
    enforce(mayDecideAppeal({ userId: moderatorId }, row.appeal, row.decision));
    const reverse = outcome === 'reverse';
    const [appeal] = await tx
      .update(moderationAppeals)
      .set({ status: reverse ? 'reversed' : 'upheld', decidedBy: moderatorId, decidedAt: now, note: note || null })
      .where(eq(moderationAppeals.id, appealId))
      .returning();
    let decision = row.decision;
    let restoredPostId: string | null = null;
    if (reverse) {
      [decision] = await tx
        .update(moderationDecisions)
        .set({ reversedAt: now })
        .where(eq(moderationDecisions.id, decision.id))
        .returning();
      if (decision!.postId) {
        const restored = await tx
          .update(publications)
          .set({ hiddenState: null })
          .where(and(eq(publications.id, decision!.postId), eq(publications.hiddenState, 'removed')))
          .returning({ id: publications.id });
        if (restored.length > 0) restoredPostId = decision!.postId;
      }
      if (decision!.authorId && decision!.action === 'suspend')
        await tx.update(users).set({ suspendedUntil: null }).where(eq(users.id, decision!.authorId));
      if (decision!.authorId && decision!.action === 'ban')
        await tx.update(users).set({ bannedAt: null }).where(eq(users.id, decision!.authorId));
    }
    await tx
      .insert(moderationNotices)
      .values({ userId: row.appeal.authorId, kind: 'appeal_outcome', decisionId: decision!.id, createdAt: now });
    return { appeal: appeal!, decision: decision!, restoredPostId };
  });
}

/** The audit line of a decision (security log: actor, target, reason). */
export function decisionAudit(decision: typeof moderationDecisions.$inferSelect): string {
  const days = decision.suspendDays ? ` (${decision.suspendDays} j)` : '';
  return `Décision « ${moderationActionLabel(decision.action as ModerationAction)}${days} » sur la publication ${decision.postId ?? '—'} ; motif : ${moderationReasonLabel(decision.reasonKey as ModerationReasonKey)}`;
}
