/** The messages of a conversation: a page of them, sending one (text and/or an image), marking them read. */
import type { FastifyRequest } from 'fastify';
import {
  MESSAGE_EVENTS,
  conversationIdParamsSchema,
  markReadSchema,
  messageContentSchema,
  messagePageSchema,
  messagesPageQuerySchema,
  sendMessageBodySchema,
  sentMessageResponseSchema,
  type MessageReadEvent,
} from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound, validationError } from '../../errors.ts';
import { containsNul } from '../../http/nul-guard.ts';
import type { TypedApp } from '../../http/typed-app.ts';
import { enforce } from '../../policies/actor.ts';
import { mayWriteIn } from '../../policies/messages.ts';
import { requireUser } from '../auth/guard.ts';
import { deleteMediaUrls, readUpload, storeImage } from '../media/index.ts';
import { refusalOf } from '../moderation/message-refusal.ts';
import type { Announce } from './announce.ts';
import { STORE_WITHIN_MS, type MessageWriter } from './send-batches.ts';
import { isUuid, listMessages, markRead, presentParticipants, requireParticipant, requireSide } from './service.ts';

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
  const parsed = messageContentSchema.safeParse(rawContent);
  if (!parsed.success) throw validationError(parsed.error.issues[0]?.message);
  const content = parsed.data;
  if (!content && !image) throw badRequest('message_required');
  return { content, image };
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
      await ctx.limits.consume('message_send', `user:${userId}`, {
        message: 'message_rate_limited',
        userId,
        ip: request.ip,
      });
      const { content, image } = await readMessage(request, request.body?.content);
      const imageUrl = image ? (await storeImage(ctx.storage, image, 'chat')).url : null;
      let sent;
      try {
        // Written with the sends that arrive meanwhile (send-batches.ts), and announced: one
        // event carries both frames, one NOTIFY the batch's events. The answer does not wait
        // for the notification.
        sent = await writer.send({
          conversationId,
          senderId: userId,
          content,
          imageUrl,
          now: ctx.now(),
          // Real time, not the app's clock (which tests move): a deadline the database checks.
          storeBy: new Date(Date.now() + STORE_WITHIN_MS),
        });
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
