/**
 * One message sent, whichever way it came (HTTP, or the realtime socket): the sender's rate
 * limit, then the write with the sends of the moment (send-batches.ts), and the refusal when the
 * statement stored nothing.
 */
import { messageContentSchema, type MessageDto } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { badRequest, validationError } from '../../errors.ts';
import { deleteMediaUrls } from '../media/index.ts';
import { refusalOf } from '../moderation/message-refusal.ts';
import { STORE_WITHIN_MS, type MessageWriter } from './send-batches.ts';

/** Counts one send against the sender's limit; throws the 429 past it. */
export function countSend(ctx: AppContext, userId: string, ip: string): Promise<void> {
  return ctx.limits.consume('message_send', `user:${userId}`, { message: 'message_rate_limited', userId, ip });
}

/** A message's text, cleaned; empty only beside an image. */
export function messageContent(raw: unknown, hasImage: boolean): string {
  const parsed = messageContentSchema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error.issues[0]?.message);
  if (!parsed.data && !hasImage) throw badRequest('message_required');
  return parsed.data;
}

export interface MessageInput {
  conversationId: string;
  senderId: string;
  content: string;
  /** An image already stored; deleted again when the message is not. */
  imageUrl: string | null;
  /** The socket that sent it, if one did: it is answered, and gets no event of its own message. */
  origin?: string;
}

/** Stores the message and returns it, or throws why it was not stored. */
export async function storeMessage(ctx: AppContext, writer: MessageWriter, input: MessageInput): Promise<MessageDto> {
  const { conversationId, senderId, imageUrl } = input;
  let sent;
  try {
    // Written with the sends that arrive meanwhile, and announced: one event carries both
    // frames, one NOTIFY the batch's events. The answer does not wait for the notification.
    sent = await writer.send({
      ...input,
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
    throw await refusalOf(ctx.database.db, conversationId, senderId, ctx.now());
  }
  return sent.message;
}
