/**
 * Why a message was not stored, read only after the one-statement send refused it: the write
 * policy (the sender's suspension, ban or terms not accepted), the other person's account
 * deleted, a block between the two, or no such conversation for them.
 */
import type { Db } from '../../db/client.ts';
import { fail, notFound, type AppError } from '../../errors.ts';
import { blockedBetween } from '../blocks/data.ts';
import { otherParticipantId, requireParticipant } from '../messages/service.ts';
import { readWriter, writeRefusal } from './write-policy.ts';

export async function refusalOf(db: Db, conversationId: string, senderId: string, now: Date): Promise<AppError> {
  const writer = await readWriter(db, senderId);
  const restricted = writer ? writeRefusal('send', writer, now) : null;
  if (restricted) return restricted;
  const conversation = await requireParticipant(db, conversationId, senderId).catch(() => null);
  if (!conversation) return notFound('conversation_not_found');
  const otherId = otherParticipantId(conversation, senderId);
  if (otherId === null) return fail(403, 'conversation_closed');
  if (await blockedBetween(db, senderId, otherId)) return fail(403, 'user_blocked_you');
  return notFound('conversation_not_found');
}
