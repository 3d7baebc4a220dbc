/**
 * A moderator's decision on a reported post, and an appeal's outcome. Each runs in
 * one transaction that locks what it changes (the post's open reports; the appeal), so two
 * moderators deciding at once cannot both act. No one decides a case about themselves, and a
 * restriction needs a strictly higher role than its target's. What each decision does is in
 * docs/moderation.md.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  APPEAL_WINDOW_DAYS,
  DAY,
  moderationActionLabel,
  moderationReasonLabel,
  outranks,
  RESTRICTING_ACTIONS,
  type DecisionInput,
  type ModerationAction,
  type ModerationReasonKey,
  type StaffRole,
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
import { conflict, fail, forbidden, notFound } from '../../errors.ts';
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

/** The staff member deciding, with the role the route checked. */
export interface Decider {
  id: string;
  role: StaffRole;
}

/** Decides on every open report of `postId`; 404 when it has none, 403 on one's own post or an equal or higher role. */
export async function decide(
  db: Db,
  decider: Decider,
  postId: string,
  input: DecisionInputParsed,
  now: Date,
): Promise<DecisionOutcome> {
  const moderatorId = decider.id;
  return db.transaction(async (t) => {
    const reports = await t
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
    if (first.authorId === moderatorId) throw forbidden('mod_own_case');
    if (
      first.authorId &&
      RESTRICTING_ACTIONS.includes(input.action) &&
      !outranks(decider.role, await getRole(t, first.authorId))
    ) {
      throw forbidden('mod_rank_refused');
    }
    const [post] = await t
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
    const [decision] = await t
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
    await t
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
        await t.update(publications).set({ hiddenState: null }).where(eq(publications.id, postId));
        restoredPostId = postId;
      } else if (!dismiss) {
        await t.update(publications).set({ hiddenState: 'removed' }).where(eq(publications.id, postId));
        if (post.hiddenState === null)
          hidden = { id: post.id, userId: post.userId, latitude: post.latitude, longitude: post.longitude };
      }
    }
    if (first.authorId && input.action === 'suspend') {
      const until = new Date(now.getTime() + (input.days ?? 1) * DAY);
      await t
        .update(users)
        .set({
          suspendedUntil: sql`greatest(coalesce(${users.suspendedUntil}, ${until.toISOString()}::timestamptz), ${until.toISOString()}::timestamptz)`,
        })
        .where(eq(users.id, first.authorId));
    }
    if (first.authorId && input.action === 'ban') {
      await t.update(users).set({ bannedAt: now }).where(eq(users.id, first.authorId));
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
    if (notices.length > 0) await t.insert(moderationNotices).values(notices);
    return { decision: decision!, reporterIds, hidden, restoredPostId };
  });
}

/** The author appeals once, within the window, a decision that restricted them. */
export async function fileAppeal(db: Db, authorId: string, decisionId: string, statement: string, now: Date) {
  const [decision] = await db
    .select()
    .from(moderationDecisions)
    .where(and(eq(moderationDecisions.id, decisionId), eq(moderationDecisions.authorId, authorId)))
    .limit(1);
  if (!decision) throw notFound();
  if (decision.action === 'dismiss' || decision.reversedAt) throw fail(400, 'appeal_not_allowed');
  if (now > decision.appealUntil) throw conflict('appeal_expired');
  const [appeal] = await db
    .insert(moderationAppeals)
    .values({ decisionId, authorId, statement, createdAt: now })
    .onConflictDoNothing({ target: moderationAppeals.decisionId })
    .returning();
  if (!appeal) throw conflict('appeal_already');
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
  return db.transaction(async (t) => {
    const [row] = await t
      .select({ appeal: moderationAppeals, decision: moderationDecisions })
      .from(moderationAppeals)
      .innerJoin(moderationDecisions, eq(moderationDecisions.id, moderationAppeals.decisionId))
      .where(eq(moderationAppeals.id, appealId))
      .for('update');
    if (!row) throw notFound('mod_appeal_not_found');
    if (row.appeal.status !== 'open') throw conflict('mod_appeal_closed');
    if (row.appeal.authorId === moderatorId || row.decision.authorId === moderatorId) throw forbidden('mod_own_case');
    if (row.decision.moderatorId === moderatorId) throw fail(403, 'mod_appeal_same_moderator');
    const reverse = outcome === 'reverse';
    const [appeal] = await t
      .update(moderationAppeals)
      .set({ status: reverse ? 'reversed' : 'upheld', decidedBy: moderatorId, decidedAt: now, note: note || null })
      .where(eq(moderationAppeals.id, appealId))
      .returning();
    let decision = row.decision;
    let restoredPostId: string | null = null;
    if (reverse) {
      [decision] = await t
        .update(moderationDecisions)
        .set({ reversedAt: now })
        .where(eq(moderationDecisions.id, decision.id))
        .returning();
      if (decision!.postId) {
        const restored = await t
          .update(publications)
          .set({ hiddenState: null })
          .where(and(eq(publications.id, decision!.postId), eq(publications.hiddenState, 'removed')))
          .returning({ id: publications.id });
        if (restored.length > 0) restoredPostId = decision!.postId;
      }
      if (decision!.authorId && decision!.action === 'suspend')
        await t.update(users).set({ suspendedUntil: null }).where(eq(users.id, decision!.authorId));
      if (decision!.authorId && decision!.action === 'ban')
        await t.update(users).set({ bannedAt: null }).where(eq(users.id, decision!.authorId));
    }
    await t
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
