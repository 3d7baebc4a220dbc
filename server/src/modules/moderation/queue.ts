/**
 * The moderation queue's reads: open reports grouped by post, with the post's
 * snapshot as first reported, its author and reporters; open appeals with their decision.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  MODERATION_REASON_KEYS,
  REPORT_REASONS,
  type ModerationAppeal,
  type ModerationDecision,
  type ReportGroup,
} from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import {
  dsaNotices,
  moderationAppeals,
  moderationDecisions,
  postReports,
  profiles,
  publications,
} from '../../db/schema.ts';
import { LIFETIME } from '../posts/data.ts';

/** The most reported posts the queue shows at once (oldest first: they have waited longest). */
export const QUEUE_GROUPS_MAX = 100;

type Snapshot = ReportGroup['snapshot'];
export function toSnapshot(raw: Record<string, unknown>): Snapshot {
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    content: str(raw.content) ?? '',
    category: str(raw.category) ?? '',
    nickname: str(raw.nickname) ?? '',
    createdAt: str(raw.createdAt) ?? '',
    imageUrl: str(raw.imageUrl),
    audioUrl: str(raw.audioUrl),
  };
}

export async function openReportGroups(db: Db): Promise<ReportGroup[]> {
  const author = alias(profiles, 'author');
  const groups = await db
    .select({
      postId: postReports.postId,
      count: sql<number>`count(*)::int`,
      first: sql<Date>`min(${postReports.createdAt})`.mapWith(postReports.createdAt),
    })
    .from(postReports)
    .where(and(eq(postReports.status, 'open'), sql`${postReports.postId} is not null`))
    .groupBy(postReports.postId)
    .orderBy(sql`min(${postReports.createdAt})`)
    .limit(QUEUE_GROUPS_MAX);
  const ids = groups.flatMap((g) => (g.postId ? [g.postId] : []));
  if (ids.length === 0) return [];
  const reports = await db
    .select({
      postId: postReports.postId,
      reasonKey: postReports.reasonKey,
      description: postReports.description,
      snapshot: postReports.postSnapshot,
      authorId: postReports.postAuthorId,
      authorName: author.username,
      reporterId: postReports.reportedBy,
      reporterName: profiles.username,
      dsaName: dsaNotices.name,
      dsaExplanation: dsaNotices.explanation,
      dsaLocation: dsaNotices.location,
    })
    .from(postReports)
    // A notice of illegal content has no member reporter, but its notifier's words.
    .leftJoin(profiles, eq(profiles.id, postReports.reportedBy))
    .leftJoin(dsaNotices, eq(dsaNotices.id, postReports.dsaNoticeId))
    .leftJoin(author, eq(author.id, postReports.postAuthorId))
    .where(and(eq(postReports.status, 'open'), inArray(postReports.postId, ids)))
    .orderBy(asc(postReports.createdAt));
  const posts = await db
    .select({
      id: publications.id,
      hiddenState: publications.hiddenState,
      expired: sql<boolean>`${publications.createdAt} <= now() - ${LIFETIME}`,
    })
    .from(publications)
    .where(inArray(publications.id, ids));
  return groups.flatMap((g) => {
    const mine = reports.filter((r) => r.postId === g.postId);
    const head = mine[0];
    if (!g.postId || !head) return [];
    const post = posts.find((p) => p.id === g.postId);
    const reasons = REPORT_REASONS.map((r) => ({
      key: r.key,
      label: r.label,
      count: mine.filter((m) => m.reasonKey === r.key).length,
    })).filter((r) => r.count > 0);
    return [
      {
        postId: g.postId,
        postState:
          !post || post.expired
            ? 'gone'
            : post.hiddenState === 'pending'
              ? 'pending'
              : post.hiddenState === 'removed'
                ? 'removed'
                : 'live',
        count: g.count,
        reasons,
        details: mine.flatMap((m) => (m.description ? [m.description] : [])),
        snapshot: toSnapshot(head.snapshot),
        author: head.authorId ? { id: head.authorId, nickname: head.authorName ?? '' } : null,
        reporters: mine.flatMap((m) => (m.reporterId ? [{ id: m.reporterId, nickname: m.reporterName ?? '' }] : [])),
        dsaNotices: mine.flatMap((m) =>
          m.dsaName !== null && m.dsaExplanation !== null && m.dsaLocation !== null
            ? [{ name: m.dsaName, explanation: m.dsaExplanation, location: m.dsaLocation }]
            : [],
        ),
        firstReportedAt: g.first.toISOString(),
      } satisfies ReportGroup,
    ];
  });
}

type DecisionRow = typeof moderationDecisions.$inferSelect;
const asReason = (key: string) => MODERATION_REASON_KEYS.find((k) => k === key) ?? 'other';

export function toDecisionDto(row: DecisionRow): ModerationDecision {
  return {
    id: row.id,
    postId: row.postId,
    authorId: row.authorId,
    moderatorId: row.moderatorId,
    action: row.action as ModerationDecision['action'],
    suspendDays: row.suspendDays,
    reason: asReason(row.reasonKey),
    note: row.note,
    createdAt: row.createdAt.toISOString(),
    appealUntil: row.appealUntil.toISOString(),
    reversed: row.reversedAt !== null,
    snapshot: toSnapshot(row.postSnapshot),
  };
}

type AppealRow = typeof moderationAppeals.$inferSelect;
export function toAppealDto(
  appeal: AppealRow,
  decision: DecisionRow,
  authorName: string | null,
  viewerId: string,
): ModerationAppeal {
  return {
    id: appeal.id,
    statement: appeal.statement,
    createdAt: appeal.createdAt.toISOString(),
    status: appeal.status as ModerationAppeal['status'],
    decision: toDecisionDto(decision),
    author: authorName === null ? null : { id: appeal.authorId, nickname: authorName },
    decidedByYou: decision.moderatorId === viewerId,
  };
}

export async function openAppeals(db: Db, viewerId: string): Promise<ModerationAppeal[]> {
  const rows = await db
    .select({ appeal: moderationAppeals, decision: moderationDecisions, authorName: profiles.username })
    .from(moderationAppeals)
    .innerJoin(moderationDecisions, eq(moderationDecisions.id, moderationAppeals.decisionId))
    .leftJoin(profiles, eq(profiles.id, moderationAppeals.authorId))
    .where(eq(moderationAppeals.status, 'open'))
    .orderBy(asc(moderationAppeals.createdAt))
    .limit(QUEUE_GROUPS_MAX);
  return rows.map((r) => toAppealDto(r.appeal, r.decision, r.authorName, viewerId));
}
