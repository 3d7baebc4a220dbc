/**
 * Private messaging (spec §3 Conversation, §7 conversations). Issue 5 item 6 starts it with
 * "contact from a post": the conversation between two people, created once and then reused.
 */
import { z } from 'zod';
import { MESSAGES } from '../messages.ts';

/** `POST /api/conversations`: the person to talk to. */
export const createConversationSchema = z.object({
  userId: z.uuid({ error: MESSAGES.profile_not_found }),
});
export type CreateConversationInput = z.infer<typeof createConversationSchema>;

/** A conversation as the API returns it: the smaller participant id first. */
export interface ConversationDto {
  id: string;
  participant1Id: string;
  participant2Id: string;
  createdAt: string;
  updatedAt: string;
}
