/**
 * Reports API: `POST /api/posts/:id/report`, for a signed-in person who is not the author, within
 * the per-account and per-address report limits.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema, reportPostSchema, reportResponseSchema } from '@moodmap/core';
import { ipKey } from '../../adapters/rate-limit/limiter.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/guard.ts';
import { hideIfReportedEnough } from '../moderation/threshold.ts';
import { reporterNetwork } from './network.ts';
import { reportPost } from './service.ts';

/** An absent JSON body reads as `{}`, so a missing reason gets its own message. */
const reportBody = z.preprocess((value) => value ?? {}, reportPostSchema);

export default async function reportsRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;

  app.post(
    '/api/posts/:id/report',
    {
      config: { write: 'report' },
      onRequest: app.authenticate,
      schema: { params: idParamsSchema, body: reportBody, response: { 201: reportResponseSchema } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      // Every attempt counts, refused ones included: probing is reporting too.
      await ctx.limits.consume('post_report_ip', ipKey(request.ip), { userId, ip: request.ip });
      await ctx.limits.consume('post_report', `user:${userId}`, { userId, ip: request.ip });
      const report = await reportPost(
        db,
        request.params.id,
        { userId },
        request.body,
        reporterNetwork(ctx.auth.keys.reportNetwork, request.ip),
      );
      await ctx.logSecurityEvent({
        userId,
        ip: request.ip,
        eventType: 'post_reported',
        description: `Publication ${report.postId} signalée (${report.reason}) ; auteur ${report.postAuthorId}`,
        severity: 'low',
      });
      await hideIfReportedEnough(ctx, request.log, report.postId);
      return reply.status(201).send({ status: 'reported' });
    },
  );
}
