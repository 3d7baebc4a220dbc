/**
 * A post reported by MODERATION_HIDE_THRESHOLD distinct people (default 3) leaves the map for
 * everyone until a moderator decides (issue 17). Called after each stored report; the
 * conditional update hides it once even when reports arrive together.
 */
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { postReports, publications } from '../../db/schema.ts';
import { announceHidden } from './visibility.ts';

export async function hideIfReportedEnough(ctx: AppContext, log: FastifyBaseLogger, postId: string): Promise<boolean> {
  const { db } = ctx.database;
  const threshold = ctx.config.moderationHideThreshold;
  const reporters = sql`(select count(distinct ${postReports.reportedBy}) from ${postReports}
    where ${postReports.postId} = ${postId}::uuid and ${postReports.status} = 'open')`;
  const [hidden] = await db.update(publications).set({ hiddenState: 'pending' })
    .where(and(eq(publications.id, postId), isNull(publications.hiddenState), sql`${reporters} >= ${threshold}`))
    .returning({ id: publications.id, latitude: publications.latitude, longitude: publications.longitude });
  if (!hidden) return false;
  await ctx.logSecurityEvent({
    eventType: 'post_hidden', severity: 'medium', targetId: postId,
    description: `Publication ${postId} masquée en attente de revue (${threshold} signalements)`,
  });
  await announceHidden(ctx, log, hidden);
  return true;
}
