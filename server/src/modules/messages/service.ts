/**
 * Conversations (spec §3 Conversation, §7 conversations): one per pair of people, the smaller id
 * first. Opening one is idempotent and race-free: the insert meets the unique pair index and,
 * when the pair exists, turns into a no-op update that returns the existing row, so any number
 * of concurrent "Contacter" clicks end with one conversation.
 */
import { sql } from 'drizzle-orm';
import type { ConversationDto } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { badRequest, notFound } from '../../errors.ts';

interface ConversationRow {
  id: string;
  participant1_id: string;
  participant2_id: string;
  created_at: string | Date;
  updated_at: string | Date;
  created: boolean;
}

function toConversationDto(row: ConversationRow): ConversationDto {
  return {
    id: row.id,
    participant1Id: row.participant1_id,
    participant2Id: row.participant2_id,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export interface OpenedConversation {
  conversation: ConversationDto;
  /** False when the pair already had one. */
  created: boolean;
}

/** The conversation between `userId` and `otherId`, created on first contact. */
export async function openConversation(db: Db, userId: string, otherId: string): Promise<OpenedConversation> {
  if (userId.toLowerCase() === otherId.toLowerCase()) throw badRequest('conversation_self');
  const other = await db.execute(sql`select id from profiles where id = ${otherId}`);
  if (other.rows.length === 0) throw notFound('profile_not_found');
  // `xmax = 0` holds for a row this statement inserted, not for one it updated.
  const result = await db.execute(sql`
    insert into conversations (participant1_id, participant2_id)
    values (least(${userId}::uuid, ${otherId}::uuid), greatest(${userId}::uuid, ${otherId}::uuid))
    on conflict (participant1_id, participant2_id) do update set updated_at = conversations.updated_at
    returning id, participant1_id, participant2_id, created_at, updated_at, (xmax = 0) as created`);
  const row = result.rows[0] as unknown as ConversationRow;
  return { conversation: toConversationDto(row), created: row.created === true };
}
