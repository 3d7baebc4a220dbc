/**
 * Why a message was not stored, read only after the one-statement send refused it: the write
 * policy (the sender's suspension, ban or terms not accepted), then maySend (not theirs, the
 * other person's account deleted, a block between the two).
 */
import type { Db } from '../../db/client.ts';
import { notFound, type AppError } from '../../errors.ts';
import { maySend } from '../../policies/messages.ts';
import { writeRefusal } from '../../policies/standing.ts';
import { blockedWith } from '../blocks/data.ts';
import { otherParticipantId, requireParticipant } from '../messages/service.ts';
import { readWriter } from './write-policy.ts';

export async function refusalOf(db: Db, conversationId: string, senderId: string, now: Date): Promise<AppError> {
  const writer = await readWriter(db, senderId);
  const restricted = writer ? writeRefusal('send', writer, now) : null;
  if (restricted) return restricted;
  const sender = { userId: senderId };
  const conversation = await requireParticipant(db, conversationId, senderId).catch(() => null);
  if (!conversation) return notFound('conversation_not_found');
  const otherId = otherParticipantId(conversation, senderId);
  const blocked = await blockedWith(db, sender, otherId);
  // Nothing explains it any more (it changed since the statement ran): unknown.
  return maySend(sender, conversation, blocked) ?? notFound('conversation_not_found');
}
