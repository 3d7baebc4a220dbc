/** The conversations routes: open one, the list and the requests box, accept or delete a request, the unread badge, one entry. */
import { z } from 'zod';
import {
  MESSAGE_EVENTS,
  conversationIdParamsSchema,
  conversationListSchema,
  conversationResponseSchema,
  conversationSummaryResponseSchema,
  createConversationSchema,
  listConversationsQuerySchema,
  openConversationBodySchema,
  unreadConversationsSchema,
  type ConversationUpdatedEvent,
} from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { TypedApp } from '../../http/typed-app.ts';
import { enforce } from '../../policies/actor.ts';
import { isHidden } from '../../policies/blocks.ts';
import { mayOpenConversation } from '../../policies/messages.ts';
import { requireUser } from '../auth/guard.ts';
import { blockedWith } from '../blocks/data.ts';
import type { BlockRule } from '../blocks/rule.ts';
import type { Announce } from './announce.ts';
import {
  acceptRequest,
  deleteRequest,
  getConversationSummary,
  listConversations,
  openConversation,
  unreadConversationIds,
} from './service.ts';

const noStore = { 'cache-control': 'no-store' };
const params = conversationIdParamsSchema;

export function conversationRoutes(
  app: TypedApp,
  ctx: AppContext,
  { blocks, announce }: { blocks: BlockRule; announce: Announce },
): void {
  const { db } = ctx.database;

  app.post(
    '/api/conversations',
    {
      config: { write: 'message' },
      onRequest: app.authenticate,
      schema: {
        body: openConversationBodySchema,
        response: { 200: conversationResponseSchema, 201: conversationResponseSchema },
      },
    },
    async (request, reply) => {
      const member = requireUser(request);
      const { userId } = member;
      // A string that is not an id names nobody.
      const parsed = createConversationSchema.safeParse(request.body);
      if (!parsed.success) throw notFound('profile_not_found');
      const otherId = parsed.data.userId;
      enforce(mayOpenConversation(member, otherId, await blockedWith(db, member, otherId)));
      const { conversation, created } = await openConversation(db, userId, otherId);
      if (created) {
        // The other person hears of it with its first message, as a request.
        const event: ConversationUpdatedEvent = { conversationId: conversation.id, updatedAt: conversation.updatedAt };
        await announce(request, [userId], MESSAGE_EVENTS.conversationUpdated, event);
      }
      return reply
        .status(created ? 201 : 200)
        .headers(noStore)
        .send({ conversation });
    },
  );

  app.get(
    '/api/conversations',
    {
      onRequest: app.authenticate,
      schema: { querystring: listConversationsQuerySchema, response: { 200: conversationListSchema } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const { before, limit } = request.query;
      return reply.headers(noStore).send(await listConversations(db, userId, { before, limit }));
    },
  );

  app.get(
    '/api/conversations/requests',
    {
      onRequest: app.authenticate,
      schema: { querystring: listConversationsQuerySchema, response: { 200: conversationListSchema } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const { before, limit } = request.query;
      const [page, hidden] = await Promise.all([
        listConversations(db, userId, { before, limit, box: 'request' }),
        blocks.hiddenFor(userId),
      ]);
      // A blocked requester's request is gone from the box (their messages are refused anyway).
      return reply.headers(noStore).send({
        ...page,
        conversations: page.conversations.filter(
          (c) => c.otherParticipant.id === null || !isHidden(hidden, c.otherParticipant.id),
        ),
      });
    },
  );

  requestRoutes(app, ctx, announce);
}

/** A request waiting for my answer: accepted (it joins my list) or deleted; the badge; one entry. */
function requestRoutes(app: TypedApp, ctx: AppContext, announce: Announce): void {
  const { db } = ctx.database;

  app.post(
    '/api/conversations/:id/accept',
    {
      config: { write: 'read' },
      onRequest: app.authenticate,
      schema: { params, response: { 200: conversationSummaryResponseSchema } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const conversation = await acceptRequest(db, request.params.id, userId);
      // My other tabs move it from 'Demandes' to the list; its sender is not told.
      const event: ConversationUpdatedEvent = { conversationId: conversation.id, updatedAt: conversation.updatedAt };
      await announce(request, [userId], MESSAGE_EVENTS.conversationUpdated, event);
      return reply.headers(noStore).send({ conversation: await getConversationSummary(db, conversation.id, userId) });
    },
  );

  app.delete(
    '/api/conversations/:id/request',
    {
      config: { write: 'read' },
      onRequest: app.authenticate,
      schema: { params, response: { 204: z.undefined() } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      await deleteRequest(db, request.params.id, userId);
      return reply.status(204).headers(noStore).send();
    },
  );

  app.get(
    '/api/conversations/unread',
    { onRequest: app.authenticate, schema: { response: { 200: unreadConversationsSchema } } },
    async (request, reply) => {
      const { userId } = requireUser(request);
      return reply.headers(noStore).send({ conversationIds: await unreadConversationIds(db, userId) });
    },
  );

  app.get(
    '/api/conversations/:id',
    {
      onRequest: app.authenticate,
      schema: { params, response: { 200: conversationSummaryResponseSchema } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      return reply.headers(noStore).send({ conversation: await getConversationSummary(db, request.params.id, userId) });
    },
  );
}
