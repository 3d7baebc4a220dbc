/**
 * Messaging API. Issue 5 item 6 ("Contacter" on a post) opens the conversation with the
 * post's author; the messaging issue adds the list, the thread and sending here.
 *
 *   POST /api/conversations  { userId } → 201 (created) or 200 (existing) { conversation }
 */
import type { FastifyInstance } from 'fastify';
import { createConversationSchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { openConversation } from './service.ts';

export default async function messagesRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.post('/api/conversations', { onRequest: app.authenticate }, async (request, reply) => {
    const { userId } = requireUser(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body.userId !== 'string') throw badRequest('bad_request');
    // A string that is not an id names nobody.
    const parsed = createConversationSchema.safeParse(body);
    if (!parsed.success) throw notFound('profile_not_found');
    const { conversation, created } = await openConversation(db, userId, parsed.data.userId);
    return reply.status(created ? 201 : 200).header('cache-control', 'no-store').send({ conversation });
  });
}
