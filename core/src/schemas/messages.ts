/**
 * Private messaging (spec §3 Conversation and Message, §5 "Chat image", §7 conversations and
 * messages). One conversation per pair of people, the smaller id first; a message holds
 * non-blank text and/or one image. Shared by the server and the web app.
 */
import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { isCritical, stripMarkup } from '../sanitize.ts';

/** `POST /api/conversations`: the person to talk to. */
export const createConversationSchema = z.object({
  userId: z.uuid({ error: MESSAGES.profile_not_found }),
});
export type CreateConversationInput = z.infer<typeof createConversationSchema>;

/**
 * A chat message's maximum length. The spec sets none; 1000 is the sanitiser's cut (spec §5
 * "Sanitising") and keeps a realtime event far below PostgreSQL's 8000-byte NOTIFY payload.
 */
export const MESSAGE_TEXT_MAX = 1000;
/** Messages per page of a thread; older ones come with `before`. */
export const MESSAGES_PAGE_SIZE = 50;
/** Upper bound a client may ask for with `limit` (catch-up after a reconnect). */
export const MESSAGES_PAGE_MAX = 200;
/** Conversations per page of the list. */
export const CONVERSATIONS_PAGE_SIZE = 50;

/**
 * A message's text: optional (an image alone is a message), trimmed, at most 1000 characters as
 * typed, refused when critical, then stripped of markup. '' when there is none. The length is
 * checked first and aborts, so an over-long text is refused without being scanned: first in
 * UTF-16 units (a character is at most two), then in characters.
 */
export const messageContentSchema = z
  .string({ error: MESSAGES.bad_request })
  .nullish()
  .transform((v) => (v ?? '').trim())
  .pipe(
    z.string()
      .max(MESSAGE_TEXT_MAX * 2, { error: MESSAGES.message_too_long, abort: true })
      .refine((v) => Array.from(v).length <= MESSAGE_TEXT_MAX, { error: MESSAGES.message_too_long, abort: true })
      .refine((v) => !isCritical(v), { error: MESSAGES.content_forbidden, abort: true })
      .transform((v) => stripMarkup(v).trim()),
  );

/** The other person of a conversation, as the list and the chat header show them. */
export interface ParticipantDto {
  id: string;
  nickname: string;
  profilePhotoUrl: string | null;
}

/** A message as the API and the realtime events carry it. */
export interface MessageDto {
  id: string;
  conversationId: string;
  senderId: string;
  /** '' for an image-only message. */
  content: string;
  imageUrl: string | null;
  read: boolean;
  createdAt: string;
}

/** A conversation as `POST /api/conversations` returns it: the smaller participant id first. */
export interface ConversationDto {
  id: string;
  participant1Id: string;
  participant2Id: string;
  createdAt: string;
  updatedAt: string;
}

/** A conversation as the list returns it (spec §3: the client holds otherParticipant and lastMessage). */
export interface ConversationSummaryDto extends ConversationDto {
  otherParticipant: ParticipantDto;
  lastMessage: MessageDto | null;
  /** The last message is from the other person and unread (the list's blue dot, the badge). */
  unread: boolean;
}

/** `GET /api/conversations` */
export interface ConversationListResult {
  conversations: ConversationSummaryDto[];
  /** Pass as `before` for the next (older) page; null at the end. */
  nextCursor: string | null;
}

/** `GET /api/conversations/:id/messages`: oldest first. */
export interface MessagePageResult {
  messages: MessageDto[];
  /** More messages exist before the first one returned (with `before`) or after the last (with `after`). */
  hasMore: boolean;
}

/** `GET /api/conversations/unread`: ids of conversations whose last message is unread and from the other party (at most 100). */
export interface UnreadConversationsResult {
  conversationIds: string[];
}

/** `POST /api/conversations/:id/read` */
export interface MarkReadResult {
  /** How many of the other party's messages this call marked read. */
  updated: number;
}

/**
 * Realtime events (server/src/realtime/hub.ts), sent to both participants' sockets only.
 * - `message.created`: a new message, with its sender for the toast.
 * - `message.read`: `readerId` has read every message of the other party in the conversation
 *   up to `upTo` (ISO date, inclusive).
 * - `conversation.updated`: a conversation appeared or moved to the top of the list.
 */
export interface MessageCreatedEvent {
  message: MessageDto;
  sender: ParticipantDto;
}
export interface MessageReadEvent {
  conversationId: string;
  readerId: string;
  upTo: string;
}
export interface ConversationUpdatedEvent {
  conversationId: string;
  updatedAt: string;
}
export const MESSAGE_EVENTS = {
  created: 'message.created',
  read: 'message.read',
  conversationUpdated: 'conversation.updated',
} as const;
