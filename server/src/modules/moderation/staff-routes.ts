/** The moderators' routes: the queue, a decision on a reported post, a decision on an appeal. */
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import {
  appealDecisionBodySchema,
  appealResponseSchema,
  decisionBodySchema,
  decisionResponseSchema,
  idParamsSchema,
  moderationQueueResponseSchema,
  postIdParamsSchema,
  MODERATION_NOTICE_EVENT,
  type ModerationNoticeEvent,
} from '@moodmap/core';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { profiles } from '../../db/schema.ts';
import type { TypedApp } from '../../http/typed-app.ts';
import { requireRole } from '../admin/access.ts';
import { sendDecisions } from '../dsa-notices/mails.ts';
import { decide, decideAppeal, decisionAudit } from './decisions.ts';
import { mailNotice } from './notices.ts';
import { openAppeals, openReportGroups, toAppealDto, toDecisionDto } from './queue.ts';
import { announceHidden, announceRestored } from './visibility.ts';

const orEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((value) => value ?? {}, schema);
const noStore = { 'cache-control': 'no-store' };

/** A new notice for `userIds`, to their sockets and devices (MODERATION_NOTICE_EVENT); a failed publish changes nothing. */
function noticeAnnouncer(ctx: AppContext, log: FastifyBaseLogger) {
  return (userIds: string[], kind: ModerationNoticeEvent['kind']) => {
    if (userIds.length === 0) return;
    void ctx.bus
      .publish({ type: MODERATION_NOTICE_EVENT, data: { kind } satisfies ModerationNoticeEvent, targets: userIds })
      .catch((error) => log.error({ err: error }, 'publish failed'));
  };
}

export function staffRoutes(app: TypedApp, ctx: AppContext): void {
  const { db } = ctx.database;
  const announceNotice = noticeAnnouncer(ctx, app.log);

  app.get(
    '/api/moderation/queue',
    { onRequest: app.authenticate, schema: { response: { 200: moderationQueueResponseSchema } } },
    async (request, reply) => {
      const { userId } = await requireRole(ctx, request, 'moderate');
      const [reports, appeals] = await Promise.all([openReportGroups(db), openAppeals(db, userId)]);
      return reply.headers(noStore).send({ reports, appeals });
    },
  );

  app.post(
    '/api/moderation/posts/:postId/decision',
    {
      config: { write: 'staff' },
      onRequest: app.authenticate,
      schema: {
        params: postIdParamsSchema,
        body: orEmpty(decisionBodySchema),
        response: { 200: decisionResponseSchema },
      },
    },
    async (request) => {
      const actor = await requireRole(ctx, request, 'moderate');
      const { userId } = actor;
      const outcome = await decide(db, actor, request.params.postId, request.body, ctx.now());
      const { decision } = outcome;
      await ctx.logSecurityEvent({
        userId,
        ip: request.ip,
        eventType: 'moderation_decision',
        severity: decision.action === 'ban' ? 'high' : 'medium',
        description: decisionAudit(decision),
        targetId: decision.authorId,
        reason: decision.note ?? decision.reasonKey,
      });
      if (outcome.hidden) await announceHidden(ctx, request.log, outcome.hidden);
      if (outcome.restoredPostId) await announceRestored(ctx, db, request.log, outcome.restoredPostId);
      if (decision.action === 'ban' && decision.authorId)
        await ctx.auth.sessions.revokeAllOf(decision.authorId).catch(() => {});
      // After commit, not awaited by the moderator: the notices are stored, the e-mails follow.
      void mailNotice(ctx, outcome.reporterIds, 'report_outcome', decision, null);
      void sendDecisions(ctx, decision).catch((error) => request.log.error({ err: error }, 'notice mails failed'));
      if (decision.action !== 'dismiss' && decision.authorId)
        void mailNotice(ctx, [decision.authorId], 'statement', decision, null);
      // The people concerned are also told by push (modules/push); nothing of the notice travels.
      announceNotice(outcome.reporterIds, 'report_outcome');
      if (decision.action !== 'dismiss' && decision.authorId) announceNotice([decision.authorId], 'statement');
      return { decision: toDecisionDto(decision) };
    },
  );

  app.post(
    '/api/moderation/appeals/:id/decision',
    {
      config: { write: 'staff' },
      onRequest: app.authenticate,
      schema: {
        params: idParamsSchema,
        body: orEmpty(appealDecisionBodySchema),
        response: { 200: appealResponseSchema },
      },
    },
    async (request) => {
      const { userId } = await requireRole(ctx, request, 'moderate');
      const { appeal, decision, restoredPostId } = await decideAppeal(
        db,
        userId,
        request.params.id,
        request.body.outcome,
        request.body.note,
        ctx.now(),
      );
      await ctx.logSecurityEvent({
        userId,
        ip: request.ip,
        eventType: 'appeal_decision',
        severity: 'medium',
        description: `Recours ${appeal.id} ${appeal.status === 'reversed' ? 'accepté : décision annulée' : 'rejeté : décision maintenue'} (${decisionAudit(decision)})`,
        targetId: decision.authorId,
        reason: appeal.note ?? appeal.status,
      });
      if (restoredPostId) await announceRestored(ctx, db, request.log, restoredPostId);
      void mailNotice(ctx, [appeal.authorId], 'appeal_outcome', decision, appeal);
      announceNotice([appeal.authorId], 'appeal_outcome');
      const [author] = await db
        .select({ username: profiles.username })
        .from(profiles)
        .where(eq(profiles.id, appeal.authorId));
      return { appeal: toAppealDto(appeal, decision, author?.username ?? null, userId) };
    },
  );
}
