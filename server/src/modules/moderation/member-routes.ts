/**
 * The routes of the people a decision concerns: an appeal filed signed in or through the mailed
 * link (appeal-link.ts: no sign-in, the token names the decision), and their notices.
 */
import { z } from 'zod';
import {
  appealBodySchema,
  appealLinkBodySchema,
  appealLinkFiledSchema,
  appealLinkQuerySchema,
  appealLinkResponseSchema,
  appealResponseSchema,
  idParamsSchema,
  noticesReadResponseSchema,
  noticesResponseSchema,
} from '@moodmap/core';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { profiles, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { TypedApp } from '../../http/typed-app.ts';
import { runningSuspension } from '../../policies/standing.ts';
import { requireUser } from '../auth/guard.ts';
import { readAppealLink } from './appeal-link.ts';
import { decisionOfToken } from './appeal-token.ts';
import { fileAppeal } from './decisions.ts';
import { listNotices, markNoticesRead } from './notices.ts';
import { toAppealDto } from './queue.ts';

const orEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((value) => value ?? {}, schema);
const noStore = { 'cache-control': 'no-store' };

export function memberRoutes(app: TypedApp, ctx: AppContext): void {
  const { db } = ctx.database;

  app.post(
    '/api/moderation/decisions/:id/appeal',
    {
      config: { write: 'appeal' },
      onRequest: app.authenticate,
      schema: { params: idParamsSchema, body: orEmpty(appealBodySchema), response: { 201: appealResponseSchema } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const { appeal, decision } = await fileAppeal(db, userId, request.params.id, request.body.statement, ctx.now());
      await ctx.logSecurityEvent({
        userId,
        ip: request.ip,
        eventType: 'appeal_filed',
        severity: 'low',
        targetId: decision.id,
        description: `Recours déposé contre la décision ${decision.id}`,
      });
      const [author] = await db.select({ username: profiles.username }).from(profiles).where(eq(profiles.id, userId));
      return reply.status(201).send({ appeal: toAppealDto(appeal, decision, author?.username ?? null, userId) });
    },
  );

  app.get(
    '/api/moderation/appeal-link',
    { schema: { querystring: appealLinkQuerySchema, response: { 200: appealLinkResponseSchema } } },
    async (request, reply) => {
      const decisionId = decisionOfToken(ctx.auth.keys.appeal, request.query.token);
      const { answer } = await readAppealLink(db, decisionId, ctx.now());
      return reply.headers(noStore).send(answer);
    },
  );

  app.post(
    '/api/moderation/appeal-link',
    { schema: { body: orEmpty(appealLinkBodySchema), response: { 201: appealLinkFiledSchema } } },
    async (request, reply) => {
      const decisionId = decisionOfToken(ctx.auth.keys.appeal, request.body.token);
      const { authorId } = await readAppealLink(db, decisionId, ctx.now());
      const { decision } = await fileAppeal(db, authorId, decisionId, request.body.statement, ctx.now());
      await ctx.logSecurityEvent({
        userId: authorId,
        ip: request.ip,
        eventType: 'appeal_filed',
        severity: 'low',
        targetId: decision.id,
        description: `Recours déposé par lien contre la décision ${decision.id}`,
      });
      return reply.status(201).send({ status: 'filed' as const });
    },
  );

  app.get(
    '/api/moderation/notices',
    { onRequest: app.authenticate, schema: { response: { 200: noticesResponseSchema } } },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const now = ctx.now();
      const [{ notices, unread }, [account]] = await Promise.all([
        listNotices(db, userId, now),
        db.select({ suspendedUntil: users.suspendedUntil }).from(users).where(eq(users.id, userId)),
      ]);
      if (!account) throw notFound();
      const suspendedUntil = runningSuspension(account, now)?.toISOString() ?? null;
      return reply.headers(noStore).send({ notices, unread, suspendedUntil });
    },
  );

  app.post(
    '/api/moderation/notices/read',
    {
      config: { write: 'read' },
      onRequest: app.authenticate,
      schema: { response: { 200: noticesReadResponseSchema } },
    },
    async (request) => {
      await markNoticesRead(db, requireUser(request).userId, ctx.now());
      return { status: 'read' as const };
    },
  );
}
