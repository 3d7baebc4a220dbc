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
 * A text message may also be sent over the realtime socket (socket-send.ts): `message.send`,
 * same rules and answers.
 *
 * Realtime (to both participants' sockets only, through the bus so it crosses instances):
 * `message.created`, `message.read`, `conversation.updated`; a request's recipient gets only
 * `message.request` (send-batches.ts); `conversation.closed` comes from an account's deletion.
 *
 * A conversation whose other person deleted their account is read as any other, and refuses
 * new messages: 403 `conversation_closed`.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MESSAGE_EVENTS } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { blockRule } from '../blocks/rule.ts';
import { privateAnnouncer } from './announce.ts';
import { conversationRoutes } from './conversation-routes.ts';
import { messageRoutes } from './message-routes.ts';
import { createMessageWriter } from './send-batches.ts';
import { socketSend } from './socket-send.ts';

export default async function messagesRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const announce = privateAnnouncer(ctx);
  const writer = createMessageWriter({
    db: ctx.database.db,
    pool: ctx.database.pool,
    bus: ctx.bus,
    onPublishError: (error) => root.log.error({ err: error, type: MESSAGE_EVENTS.created }, 'publish failed'),
  });
  conversationRoutes(app, ctx, { blocks: blockRule(ctx.database.db, ctx.bus), announce });
  messageRoutes(app, ctx, { writer, announce });
  socketSend(root, ctx, writer);
}
