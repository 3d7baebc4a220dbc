/** The conversations API (server/src/modules/messages/routes.ts). */
import { type ConversationDto, MESSAGES } from '@moodmap/core';
import { ApiError, api } from '../../lib/api.ts';

/** The conversation with `userId`, created on first contact (200 or 201 alike). */
export async function openConversation(userId: string): Promise<ConversationDto> {
  const payload = await api<{ conversation?: Partial<ConversationDto> }>('/api/conversations', { method: 'POST', body: { userId } });
  const conversation = payload?.conversation;
  if (!conversation || typeof conversation.id !== 'string') throw new ApiError(500, 'conversation_create_failed', MESSAGES.conversation_create_failed);
  return conversation as ConversationDto;
}
