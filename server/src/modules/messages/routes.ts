/**
 * Messaging API. Every route needs a session; a conversation exists only for its two
 * participants (404 `conversation_not_found` for anyone else, and for ids that are not ids).
 *
 *   POST /api/conversations                 { userId } → 201 created | 200 existing { conversation }
 *   GET  /api/conversations?before&limit    → { conversations, nextCursor }   newest updated first (accepted)
 *   GET  /api/conversations/requests?before&limit → { conversations, nextCursor } my message requests
 *   POST /api/conversations/:id/accept      → { conversation }                a request joins the list
 *   DELETE /api/conversations/:id/request   → 204                             gone for me only
 *   GET  /api/conversations/unread          → { conversationIds }             the badge
 *   GET  /api/conversations/:id             → { conversation }                one list entry
 *   GET  /api/conversations/:id/messages?before|after&limit → { messages, hasMore }  oldest first
 *   POST /api/conversations/:id/messages    JSON { content } or multipart (content, file) → 201 { message }
 *   POST /api/conversations/:id/read        → { updated }
 *
 * Realtime (to both participants' sockets only, through the bus so it crosses instances):
 * `message.created`, `message.read`, `conversation.updated`; a request's recipient gets only
 * `message.request` (send-batches.ts); `conversation.closed` comes from an account's deletion.
 *
 * A conversation whose other person deleted their account is read as any other, and refuses
 * new messages: 403 `conversation_closed`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGE_EVENTS,
  conversationIdParamsSchema,
  conversationListSchema,
  conversationResponseSchema,
  conversationSummaryResponseSchema,
  createConversationSchema,
  listConversationsQuerySchema,
  markReadSchema,
  messageContentSchema,
  messagePageSchema,
  messagesPageQuerySchema,
  openConversationBodySchema,
  sendMessageBodySchema,
  sentMessageResponseSchema,
  unreadConversationsSchema,
  type ConversationUpdatedEvent,
  type MessageReadEvent,
} from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import type { RealtimeEvent } from '../../adapters/bus/types.ts';
import { badRequest, fail, notFound, validationError } from '../../errors.ts';
import { containsNul } from '../../http/nul-guard.ts';
import { refusalOf } from '../moderation/message-refusal.ts';
import { requireUser } from '../auth/guard.ts';
import { blockRule } from '../blocks/rule.ts';
import { deleteMediaUrls, readUpload, storeImage } from '../media/index.ts';
import {
  acceptRequest,
  deleteRequest,
  getConversationSummary,
  isClosed,
  isUuid,
  listConversations,
  listMessages,
  markRead,
  openConversation,
  presentParticipants,
  requireParticipant,
  requireSide,
  unreadConversationIds,
} from './service.ts';
import { createMessageWriter } from './send-batches.ts';

export default async function messagesRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const noStore = { 'cache-control': 'no-store' };

  const blocks = blockRule(db, ctx.bus);

  /** Private events go to the two participants only (`about`: the caller, whom a blocked pair does not hear of); a failed publish never fails the request. */
  const announce = (request: FastifyRequest, participants: string[], type: string, data: unknown) =>
    ctx.bus.publish({ type, data, targets: participants, about: [requireUser(request).userId] } satisfies RealtimeEvent)
      .catch((error) => request.log.error({ err: error, type }, 'publish failed'));

  const params = conversationIdParamsSchema;
  const writer = createMessageWriter({
    db,
    pool: ctx.database.pool,
    bus: ctx.bus,
    onPublishError: (error) => root.log.error({ err: error, type: MESSAGE_EVENTS.created }, 'publish failed'),
  });

  app.post('/api/conversations', {
    config: { write: 'message' },
    onRequest: app.authenticate,
    schema: { body: openConversationBodySchema, response: { 200: conversationResponseSchema, 201: conversationResponseSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    // A string that is not an id names nobody.
    const parsed = createConversationSchema.safeParse(request.body);
    if (!parsed.success) throw notFound('profile_not_found');
    await blocks.assertMayMeet(userId, parsed.data.userId);
    const { conversation, created } = await openConversation(db, userId, parsed.data.userId);
    if (created) {
      // The other person hears of it with its first message, as a request.
      const event: ConversationUpdatedEvent = { conversationId: conversation.id, updatedAt: conversation.updatedAt };
      await announce(request, [userId], MESSAGE_EVENTS.conversationUpdated, event);
    }
    return reply.status(created ? 201 : 200).headers(noStore).send({ conversation });
  });

  app.get('/api/conversations', {
    onRequest: app.authenticate,
    schema: { querystring: listConversationsQuerySchema, response: { 200: conversationListSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    const { before, limit } = request.query;
    return reply.headers(noStore).send(await listConversations(db, userId, { before, limit }));
  });

  app.get('/api/conversations/requests', {
    onRequest: app.authenticate,
    schema: { querystring: listConversationsQuerySchema, response: { 200: conversationListSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    const { before, limit } = request.query;
    const [page, hidden] = await Promise.all([listConversations(db, userId, { before, limit, box: 'request' }), blocks.hiddenFor(userId)]);
    // A blocked requester's request is gone from the box (their messages are refused anyway).
    return reply.headers(noStore).send({ ...page, conversations: page.conversations.filter((c) => c.otherParticipant.id === null || !hidden.has(c.otherParticipant.id)) });
  });

  app.post('/api/conversations/:id/accept', {
    config: { write: 'read' },
    onRequest: app.authenticate,
    schema: { params, response: { 200: conversationSummaryResponseSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    const conversation = await acceptRequest(db, request.params.id, userId);
    // My other tabs move it from 'Demandes' to the list; its sender is not told.
    const event: ConversationUpdatedEvent = { conversationId: conversation.id, updatedAt: conversation.updatedAt };
    await announce(request, [userId], MESSAGE_EVENTS.conversationUpdated, event);
    return reply.headers(noStore).send({ conversation: await getConversationSummary(db, conversation.id, userId) });
  });

  app.delete('/api/conversations/:id/request', {
    config: { write: 'read' },
    onRequest: app.authenticate,
    schema: { params, response: { 204: z.undefined() } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    await deleteRequest(db, request.params.id, userId);
    return reply.status(204).headers(noStore).send();
  });

  app.get('/api/conversations/unread', { onRequest: app.authenticate, schema: { response: { 200: unreadConversationsSchema } } }, async (request, reply) => {
    const { userId } = requireUser(request);
    return reply.headers(noStore).send({ conversationIds: await unreadConversationIds(db, userId) });
  });

  app.get('/api/conversations/:id', {
    onRequest: app.authenticate,
    schema: { params, response: { 200: conversationSummaryResponseSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    return reply.headers(noStore).send({ conversation: await getConversationSummary(db, request.params.id, userId) });
  });

  app.get('/api/conversations/:id/messages', {
    onRequest: app.authenticate,
    schema: { params, querystring: messagesPageQuerySchema, response: { 200: messagePageSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    const conversation = await requireParticipant(db, request.params.id, userId);
    const { before, after, limit } = request.query;
    return reply.headers(noStore).send(await listMessages(db, conversation.id, { before, after, limit }));
  });

  app.post('/api/conversations/:id/messages', {
    config: { write: 'send' },
    onRequest: app.authenticate,
    schema: { params, body: sendMessageBodySchema, response: { 201: sentMessageResponseSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    // A send waits on PostgreSQL twice at most: the session is remembered
    // (sessions.ts), the counter lives in Redis when REDIS_URL is set, the participant check
    // is part of the insert, which is shared with the other sends of the moment.
    const conversationId = request.params.id;
    if (!isUuid(conversationId)) throw notFound('conversation_not_found');
    const multipart = request.isMultipart();
    // An image is stored before the insert: only an upload to an open conversation of mine is worth storing.
    if (multipart && isClosed(await requireParticipant(db, conversationId, userId))) throw fail(403, 'conversation_closed');
    await ctx.limits.consume('message_send', `user:${userId}`, { message: 'message_rate_limited', userId, ip: request.ip });

    // Text and/or one image: JSON for text alone, multipart when an image comes along.
    // A JSON body's `content` was type-checked at the door (sendMessageBodySchema).
    let rawContent = request.body?.content;
    let image: Buffer | null = null;
    if (multipart) {
      const { file, fields } = await readUpload(request, 'chat', { field: 'file' });
      rawContent = fields.content;
      image = file?.body ?? null;
      // The JSON body is checked by the NUL guard (http/nul-guard.ts); form fields come later.
      if (containsNul(fields)) throw badRequest('bad_request');
    }
    const parsed = messageContentSchema.safeParse(rawContent);
    if (!parsed.success) throw validationError(parsed.error.issues[0]?.message);
    const content = parsed.data;
    if (!content && !image) throw badRequest('message_required');

    const imageUrl = image ? (await storeImage(ctx.storage, image, 'chat')).url : null;
    let sent;
    try {
      // Written with the sends that arrive meanwhile (send-batches.ts), and announced: one
      // event carries both frames, one NOTIFY the batch's events. The answer does not wait
      // for the notification.
      sent = await writer.send({ conversationId, senderId: userId, content, imageUrl, now: ctx.now() });
    } catch (error) {
      // The message was not stored: its image must not stay behind.
      await deleteMediaUrls(ctx.storage, [imageUrl]).catch(() => {});
      throw error;
    }
    if (!sent) {
      await deleteMediaUrls(ctx.storage, [imageUrl]).catch(() => {});
      throw await refusalOf(db, conversationId, userId, ctx.now());
    }
    return reply.status(201).headers(noStore).send({ message: sent.message });
  });

  app.post('/api/conversations/:id/read', {
    config: { write: 'read' },
    onRequest: app.authenticate,
    schema: { params, response: { 200: markReadSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    const { conversation, side } = await requireSide(db, request.params.id, userId);
    // Reading a request tells its sender nothing: it stays unread until accepted.
    if (side === 'request') return reply.headers(noStore).send({ updated: 0 });
    const { updated, upTo } = await markRead(db, conversation.id, userId);
    if (updated > 0 && upTo) {
      const event: MessageReadEvent = { conversationId: conversation.id, readerId: userId, upTo };
      await announce(request, presentParticipants(conversation), MESSAGE_EVENTS.read, event);
    }
    return reply.headers(noStore).send({ updated });
  });
}
