/** The messages of a conversation: a page of them, sending one (text and/or an image), marking them read. */
import type { FastifyRequest } from 'fastify';
import {
  MESSAGE_EVENTS,
  conversationIdParamsSchema,
  markReadSchema,
  messagePageSchema,
  messagesPageQuerySchema,
  sendMessageBodySchema,
  sentMessageResponseSchema,
  type MessageReadEvent,
} from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../errors.ts';
import { containsNul } from '../../http/nul-guard.ts';
import type { TypedApp } from '../../http/typed-app.ts';
import { enforce } from '../../policies/actor.ts';
import { mayWriteIn } from '../../policies/messages.ts';
import { requireUser } from '../auth/guard.ts';
import { readUpload, storeImage } from '../media/index.ts';
import type { Announce } from './announce.ts';
import type { MessageWriter } from './send-batches.ts';
import { isUuid, listMessages, markRead, presentParticipants, requireParticipant, requireSide } from './service.ts';
import { countSend, messageContent, storeMessage } from './store-message.ts';

const noStore = { 'cache-control': 'no-store' };
const params = conversationIdParamsSchema;

/**
 * Text and/or one image: JSON for text alone, multipart when an image comes along.
 * A JSON body's `content` was type-checked at the door (sendMessageBodySchema).
 */
async function readMessage(
  request: FastifyRequest,
  jsonContent: unknown,
): Promise<{ content: string; image: Buffer | null }> {
  let rawContent = jsonContent;
  let image: Buffer | null = null;
  if (request.isMultipart()) {
    const { file, fields } = await readUpload(request, 'chat', { field: 'file' });
    rawContent = fields.content;
    image = file?.body ?? null;
    // The JSON body is checked by the NUL guard (http/nul-guard.ts); form fields come later.
    if (containsNul(fields)) throw badRequest('bad_request');
  }
  return { content: messageContent(rawContent, image !== null), image };
}

export function messageRoutes(
  app: TypedApp,
  ctx: AppContext,
  { writer, announce }: { writer: MessageWriter; announce: Announce },
): void {
  const { db } = ctx.database;

  app.get(
    '/api/conversations/:id/messages',
    {
      onRequest: app.authenticate,
      schema: { params, querystring: messagesPageQuerySchema, response: { 200: messagePageSchema } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const conversation = await requireParticipant(db, request.params.id, userId);
      const { before, after, limit } = request.query;
      return reply.headers(noStore).send(await listMessages(db, conversation.id, { before, after, limit }));
    },
  );

  app.post(
    '/api/conversations/:id/messages',
    {
      config: { write: 'send' },
      onRequest: app.authenticate,
      schema: { params, body: sendMessageBodySchema, response: { 201: sentMessageResponseSchema } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      // A send waits on PostgreSQL twice at most: the session is remembered
      // (sessions.ts), the counter lives in Redis when REDIS_URL is set, the participant check
      // is part of the insert, which is shared with the other sends of the moment.
      const conversationId = request.params.id;
      if (!isUuid(conversationId)) throw notFound('conversation_not_found');
      // An image is stored before the insert: only an upload to an open conversation of mine is worth storing.
      if (request.isMultipart()) enforce(mayWriteIn(await requireParticipant(db, conversationId, userId)));
      await countSend(ctx, userId, request.ip);
      const { content, image } = await readMessage(request, request.body?.content);
      const imageUrl = image ? (await storeImage(ctx.storage, image, 'chat')).url : null;
      const message = await storeMessage(ctx, writer, { conversationId, senderId: userId, content, imageUrl });
      return reply.status(201).headers(noStore).send({ message });
    },
  );

  app.post(
    '/api/conversations/:id/read',
    {
      config: { write: 'read' },
      onRequest: app.authenticate,
      schema: { params, response: { 200: markReadSchema } },
    },
    async (request, reply) => {
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
    },
  );
}
