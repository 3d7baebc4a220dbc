/**
 * Notices of illegal content (DSA Art. 16): `POST /api/dsa-notices` by anyone, within the per-address
 * and per-e-mail limits, and `POST /api/dsa-notices/confirm` with the mailed token. No write policy:
 * a visitor, or a suspended or banned member, may notify illegal content too.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  dsaConfirmBodySchema,
  dsaConfirmResponseSchema,
  dsaNoticeBodySchema,
  dsaNoticeResponseSchema,
  postIdOfLocation,
} from '@moodmap/core';
import { ipKey, type ConsumeOptions } from '../../adapters/rate-limit/limiter.ts';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import { badRequest } from '../../errors.ts';
import { notifiesAsConfirmed } from '../../policies/reports.ts';
import { sendConfirmLink, sendReceipt } from './mails.ts';
import { confirmNotice, recordNotice } from './service.ts';

const orEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((value) => value ?? {}, schema);

export default async function dsaNoticesRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;

  app.post(
    '/api/dsa-notices',
    {
      onRequest: app.authenticateOptional,
      schema: { body: orEmpty(dsaNoticeBodySchema), response: { 201: dsaNoticeResponseSchema } },
    },
    async (request, reply) => {
      const { explanation, location, name, email } = request.body;
      const userId = request.auth?.userId ?? null;
      const limit: ConsumeOptions = { message: 'dsa_rate_limited', userId, ip: request.ip };
      await ctx.limits.consume('dsa_notice_ip', ipKey(request.ip), limit);
      await ctx.limits.consume('dsa_notice_email', `email:${email}`, limit);
      const postId = postIdOfLocation(location);
      if (!postId) throw badRequest('dsa_location_invalid');
      const [account] = userId
        ? await db
            .select({ email: users.email, confirmedAt: users.emailConfirmedAt })
            .from(users)
            .where(eq(users.id, userId))
        : [];
      const confirmed = notifiesAsConfirmed(account, email);
      const { notice, token } = await recordNotice(
        db,
        postId,
        { explanation, location, name, email },
        { id: userId, confirmed },
        ctx.now(),
      );
      await ctx.logSecurityEvent({
        userId,
        ip: request.ip,
        eventType: 'dsa_notice',
        severity: 'low',
        targetId: postId,
        description: `Notification de contenu illicite ${notice.id} sur la publication ${postId}${token ? ' (à confirmer)' : ''}`,
      });
      if (token) await sendConfirmLink(ctx, notice, token);
      else await sendReceipt(ctx, notice);
      return reply.status(201).send({ status: token ? 'confirm' : 'received' });
    },
  );

  app.post(
    '/api/dsa-notices/confirm',
    {
      schema: { body: orEmpty(dsaConfirmBodySchema), response: { 200: dsaConfirmResponseSchema } },
    },
    async (request) => {
      const notice = await confirmNotice(db, request.body.token, ctx.now());
      await ctx.logSecurityEvent({
        userId: notice.notifierId,
        ip: request.ip,
        eventType: 'dsa_notice_confirmed',
        severity: 'low',
        targetId: notice.postId,
        description: `Notification de contenu illicite ${notice.id} confirmée`,
      });
      await sendReceipt(ctx, notice);
      return { status: 'received' as const };
    },
  );
}
