/**
 * Moderation API (docs/moderation.md): the queue and decisions (moderator and up), appeals (the author
 * files, another moderator decides), the caller's notices. Every staff action is written to the
 * append-only security log with its actor, target and reason.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  appealBodySchema, appealDecisionBodySchema, appealLinkBodySchema, appealLinkFiledSchema, appealLinkQuerySchema, appealLinkResponseSchema, appealResponseSchema, decisionBodySchema, decisionResponseSchema, idParamsSchema,
  MODERATION_ROLES, moderationQueueResponseSchema, noticesReadResponseSchema, noticesResponseSchema, postIdParamsSchema,
  MODERATION_NOTICE_EVENT, type ModerationNoticeEvent,
} from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { requireRole } from '../admin/access.ts';
import { requireUser } from '../auth/guard.ts';
import { profiles, users } from '../../db/schema.ts';
import { eq } from 'drizzle-orm';
import { readAppealLink } from './appeal-link.ts';
import { decisionOfToken } from './appeal-token.ts';
import { sendDecisions } from '../dsa-notices/mails.ts';
import { decide, decideAppeal, decisionAudit, fileAppeal } from './decisions.ts';
import { listNotices, mailNotice, markNoticesRead } from './notices.ts';
import { openAppeals, openReportGroups, toAppealDto, toDecisionDto } from './queue.ts';
import { announceHidden, announceRestored } from './visibility.ts';

const orEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((value) => value ?? {}, schema);
const appealParams = idParamsSchema;

export default async function moderationRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const noStore = { 'cache-control': 'no-store' };
  /** A new notice for `userIds`, to their sockets and devices (MODERATION_NOTICE_EVENT); a failed publish changes nothing. */
  const announceNotice = (userIds: string[], kind: ModerationNoticeEvent['kind']) => {
    if (userIds.length === 0) return;
    void ctx.bus.publish({ type: MODERATION_NOTICE_EVENT, data: { kind } satisfies ModerationNoticeEvent, targets: userIds })
      .catch((error) => app.log.error({ err: error }, 'publish failed'));
  };

  app.get('/api/moderation/queue', { onRequest: app.authenticate, schema: { response: { 200: moderationQueueResponseSchema } } }, async (request, reply) => {
    const { userId } = await requireRole(ctx, request, MODERATION_ROLES);
    const [reports, appeals] = await Promise.all([openReportGroups(db), openAppeals(db, userId)]);
    return reply.headers(noStore).send({ reports, appeals });
  });

  app.post('/api/moderation/posts/:postId/decision', {
    config: { write: 'staff' },
    onRequest: app.authenticate,
    schema: { params: postIdParamsSchema, body: orEmpty(decisionBodySchema), response: { 200: decisionResponseSchema } },
  }, async (request) => {
    const { userId, role } = await requireRole(ctx, request, MODERATION_ROLES);
    const outcome = await decide(db, { id: userId, role }, request.params.postId, request.body, ctx.now());
    const { decision } = outcome;
    await ctx.logSecurityEvent({
      userId, ip: request.ip, eventType: 'moderation_decision', severity: decision.action === 'ban' ? 'high' : 'medium',
      description: decisionAudit(decision), targetId: decision.authorId, reason: decision.note ?? decision.reasonKey,
    });
    if (outcome.hidden) await announceHidden(ctx, request.log, outcome.hidden);
    if (outcome.restoredPostId) await announceRestored(ctx, db, request.log, outcome.restoredPostId);
    if (decision.action === 'ban' && decision.authorId) await ctx.auth.sessions.revokeAllOf(decision.authorId).catch(() => {});
    // After commit, not awaited by the moderator: the notices are stored, the e-mails follow.
    void mailNotice(ctx, outcome.reporterIds, 'report_outcome', decision, null);
    void sendDecisions(ctx, decision).catch((error) => request.log.error({ err: error }, 'notice mails failed'));
    if (decision.action !== 'dismiss' && decision.authorId) void mailNotice(ctx, [decision.authorId], 'statement', decision, null);
    // The people concerned are also told by push (modules/push); nothing of the notice travels.
    announceNotice(outcome.reporterIds, 'report_outcome');
    if (decision.action !== 'dismiss' && decision.authorId) announceNotice([decision.authorId], 'statement');
    return { decision: toDecisionDto(decision) };
  });

  app.post('/api/moderation/appeals/:id/decision', {
    config: { write: 'staff' },
    onRequest: app.authenticate,
    schema: { params: appealParams, body: orEmpty(appealDecisionBodySchema), response: { 200: appealResponseSchema } },
  }, async (request) => {
    const { userId } = await requireRole(ctx, request, MODERATION_ROLES);
    const { appeal, decision, restoredPostId } = await decideAppeal(db, userId, request.params.id, request.body.outcome, request.body.note, ctx.now());
    await ctx.logSecurityEvent({
      userId, ip: request.ip, eventType: 'appeal_decision', severity: 'medium',
      description: `Recours ${appeal.id} ${appeal.status === 'reversed' ? 'accepté : décision annulée' : 'rejeté : décision maintenue'} (${decisionAudit(decision)})`,
      targetId: decision.authorId, reason: appeal.note ?? appeal.status,
    });
    if (restoredPostId) await announceRestored(ctx, db, request.log, restoredPostId);
    void mailNotice(ctx, [appeal.authorId], 'appeal_outcome', decision, appeal);
    announceNotice([appeal.authorId], 'appeal_outcome');
    const [author] = await db.select({ username: profiles.username }).from(profiles).where(eq(profiles.id, appeal.authorId));
    return { appeal: toAppealDto(appeal, decision, author?.username ?? null, userId) };
  });

  app.post('/api/moderation/decisions/:id/appeal', {
    config: { write: 'appeal' },
    onRequest: app.authenticate,
    schema: { params: appealParams, body: orEmpty(appealBodySchema), response: { 201: appealResponseSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    const { appeal, decision } = await fileAppeal(db, userId, request.params.id, request.body.statement, ctx.now());
    await ctx.logSecurityEvent({
      userId, ip: request.ip, eventType: 'appeal_filed', severity: 'low', targetId: decision.id,
      description: `Recours déposé contre la décision ${decision.id}`,
    });
    const [author] = await db.select({ username: profiles.username }).from(profiles).where(eq(profiles.id, userId));
    return reply.status(201).send({ appeal: toAppealDto(appeal, decision, author?.username ?? null, userId) });
  });

  // The mailed appeal link (appeal-link.ts): no sign-in, the token names the decision.
  app.get('/api/moderation/appeal-link', { schema: { querystring: appealLinkQuerySchema, response: { 200: appealLinkResponseSchema } } }, async (request, reply) => {
    const decisionId = decisionOfToken(ctx.auth.keys.appeal, request.query.token);
    const { answer } = await readAppealLink(db, decisionId, ctx.now());
    return reply.headers(noStore).send(answer);
  });

  app.post('/api/moderation/appeal-link', { schema: { body: orEmpty(appealLinkBodySchema), response: { 201: appealLinkFiledSchema } } }, async (request, reply) => {
    const decisionId = decisionOfToken(ctx.auth.keys.appeal, request.body.token);
    const { authorId } = await readAppealLink(db, decisionId, ctx.now());
    const { decision } = await fileAppeal(db, authorId, decisionId, request.body.statement, ctx.now());
    await ctx.logSecurityEvent({
      userId: authorId, ip: request.ip, eventType: 'appeal_filed', severity: 'low', targetId: decision.id,
      description: `Recours déposé par lien contre la décision ${decision.id}`,
    });
    return reply.status(201).send({ status: 'filed' as const });
  });

  app.get('/api/moderation/notices', { onRequest: app.authenticate, schema: { response: { 200: noticesResponseSchema } } }, async (request, reply) => {
    const { userId } = requireUser(request);
    const now = ctx.now();
    const [{ notices, unread }, [account]] = await Promise.all([
      listNotices(db, userId, now),
      db.select({ suspendedUntil: users.suspendedUntil }).from(users).where(eq(users.id, userId)),
    ]);
    if (!account) throw notFound();
    const suspendedUntil = account.suspendedUntil && account.suspendedUntil > now ? account.suspendedUntil.toISOString() : null;
    return reply.headers(noStore).send({ notices, unread, suspendedUntil });
  });

  app.post('/api/moderation/notices/read', { config: { write: 'read' }, onRequest: app.authenticate, schema: { response: { 200: noticesReadResponseSchema } } }, async (request) => {
    await markNoticesRead(db, requireUser(request).userId, ctx.now());
    return { status: 'read' as const };
  });
}
