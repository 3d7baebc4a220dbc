/** Reports API: `POST /api/posts/:id/report`, for a signed-in person who is not the author. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { reportPostSchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { reportPost } from './service.ts';

const idParams = z.object({ id: z.uuid() });

export default async function reportsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.post('/api/posts/:id/report', { onRequest: app.authenticate, schema: { params: idParams } }, async (request, reply) => {
    const { userId } = requireUser(request);
    const { id } = request.params as z.infer<typeof idParams>;
    const parsed = reportPostSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error.issues[0]?.message);
    const report = await reportPost(db, id, userId, parsed.data);
    await ctx.logSecurityEvent({
      userId,
      ip: request.ip,
      eventType: 'post_reported',
      description: `Publication ${report.postId} signalée (${report.reason}) ; auteur ${report.postAuthorId}`,
      severity: 'low',
    });
    return reply.status(201).send({ status: 'reported' });
  });
}
