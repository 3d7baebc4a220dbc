/**
 * `message.send` over the realtime socket: a text message sent by a tab that already holds a
 * signed-in socket, with the HTTP route's rules, checks in the same order and answers (an image
 * still goes over HTTP). The hub has checked who asks (realtime/socket-requests.ts).
 *   { "type": "message.send", "ref", "conversationId", "content" } → reply data { message }
 */
import type { FastifyInstance } from 'fastify';
import { SOCKET_REQUESTS } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { MessageWriter } from './send-batches.ts';
import { isUuid } from './service.ts';
import { countSend, messageContent, storeMessage } from './store-message.ts';

export function socketSend(app: FastifyInstance, ctx: AppContext, writer: MessageWriter): void {
  app.socketRequests.handle(SOCKET_REQUESTS.messageSend, {
    busy: 'message_rate_limited',
    async run({ userId, ip, socketId }, frame) {
      const { conversationId } = frame;
      if (!isUuid(conversationId)) throw notFound('conversation_not_found');
      await countSend(ctx, userId, ip);
      // No image: a socket carries text only.
      const content = messageContent(frame.content, false);
      // The asking socket has the message in its reply: its copy of the event is left out.
      const input = { conversationId, senderId: userId, content, imageUrl: null, origin: socketId };
      const message = await storeMessage(ctx, writer, input);
      return { message };
    },
  });
}
