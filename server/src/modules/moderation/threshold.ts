/**
 * A post reported from MODERATION_HIDE_THRESHOLD distinct networks (default 3) by accounts that
 * count leaves the map for everyone until a moderator decides. A report counts when
 * its reporter's account was confirmed and REPORT_COUNTS_AFTER_HOURS old when reporting; at most
 * one report counts per network (reports/network.ts). Every report still reaches the queue.
 * Called after each stored report; the conditional update hides it once even when reports
 * arrive together.
 */
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { REPORT_COUNTS_AFTER_HOURS } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { postReports, publications } from '../../db/schema.ts';
import { announceHidden } from './visibility.ts';

/**
 * Whether a report by `userId` made now counts toward hiding, inside the report's INSERT. The
 * database clock, like the account's created_at it is compared with.
 */
export function reportCountsSql(userId: string): SQL<boolean> {
  return sql<boolean>`exists (select 1 from users u where u.id = ${userId}::uuid and u.email_confirmed_at is not null
    and u.created_at <= now() - make_interval(hours => ${REPORT_COUNTS_AFTER_HOURS}))`;
}

export async function hideIfReportedEnough(ctx: AppContext, log: FastifyBaseLogger, postId: string): Promise<boolean> {
  const { db } = ctx.database;
  const threshold = ctx.config.moderationHideThreshold;
  const reporters = sql`(select count(distinct ${postReports.reporterNetwork}) from ${postReports}
    where ${postReports.postId} = ${postId}::uuid and ${postReports.status} = 'open' and ${postReports.countsTowardHiding})`;
  const [hidden] = await db
    .update(publications)
    .set({ hiddenState: 'pending' })
    .where(and(eq(publications.id, postId), isNull(publications.hiddenState), sql`${reporters} >= ${threshold}`))
    .returning({
      id: publications.id,
      userId: publications.userId,
      latitude: publications.latitude,
      longitude: publications.longitude,
    });
  if (!hidden) return false;
  await ctx.logSecurityEvent({
    eventType: 'post_hidden',
    severity: 'medium',
    targetId: postId,
    description: `Publication ${postId} masquée en attente de revue (${threshold} signalements)`,
  });
  await announceHidden(ctx, log, hidden);
  return true;
}
