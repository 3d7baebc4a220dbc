/**
 * Private messaging (docs/product.md, Messages). One conversation per pair of people, the
 * smaller id first; a message holds non-blank text and/or one image. Shared by the server and
 * the web app.
 */
import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { stripMarkup } from '../sanitize.ts';
import { boundedFreeText } from './text.ts';
import { MESSAGE_TEXT_MAX } from '../contract.ts';
export {
  MESSAGE_TEXT_MAX,
  MESSAGES_PAGE_SIZE,
  MESSAGES_PAGE_MAX,
  CONVERSATIONS_PAGE_SIZE,
  MESSAGE_EVENTS,
} from '../contract.ts';

/** `POST /api/conversations`: the person to talk to. */
export const createConversationSchema = z.object({
  userId: z.uuid({ error: MESSAGES.profile_not_found }),
});
export type CreateConversationInput = z.infer<typeof createConversationSchema>;

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
  .pipe(boundedFreeText(MESSAGE_TEXT_MAX, MESSAGES.message_too_long).transform((v) => stripMarkup(v).trim()));

/**
 * Exact types at the door: a repeated parameter (an array) or an object is a 400 before any
 * query. Ids that are not uuids stay a 404 for conversations (nothing to probe), and cursors
 * are checked by the server (a message id; the list's opaque cursor).
 */
export const conversationIdParamsSchema = z.object({ id: z.string().max(64) });

/** `GET /api/conversations?before&limit` */
export const listConversationsQuerySchema = z.object({
  before: z.string().max(256).optional(),
  limit: z
    .string()
    .regex(/^\d{1,6}$/)
    .transform(Number)
    .pipe(z.number().int().min(1))
    .optional(),
});

/** `GET /api/conversations/:id/messages?before|after&limit` */
export const messagesPageQuerySchema = z.object({
  before: z.string().max(64).optional(),
  after: z.string().max(64).optional(),
  limit: z.string().max(10).optional(),
});

/** `POST /api/conversations`: only the shape at the door; an id that is not a uuid names nobody (404). */
export const openConversationBodySchema = z.object({ userId: z.string().max(64) });

/**
 * `POST /api/conversations/:id/messages` as JSON: the text's type at the door (its rules are
 * messageContentSchema's, checked once the caller is known to be a participant). A multipart
 * form (text and an image) has no JSON body; its `content` field goes through the same schema.
 */
export const sendMessageBodySchema = z
  .object({ content: z.string({ error: MESSAGES.bad_request }).nullish() })
  .nullish();

/**
 * The other person of a conversation, as the list and the chat header show them. `id` null: their
 * account was deleted; the nickname is then 'Compte supprimé', there is no photo, no profile to
 * open and no reply possible.
 */
export const participantSchema = z.object({
  id: z.string().nullable(),
  nickname: z.string(),
  profilePhotoUrl: z.string().nullable(),
});
export type ParticipantDto = z.infer<typeof participantSchema>;

/** A message as the API and the realtime events carry it. */
export const messageDtoSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  /** Null for a message whose sender deleted their account. */
  senderId: z.string().nullable(),
  /** '' for an image-only message; '' with no image too for a deleted account's image, removed. */
  content: z.string(),
  imageUrl: z.string().nullable(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type MessageDto = z.infer<typeof messageDtoSchema>;

/** A conversation as `POST /api/conversations` returns it: the smaller participant id first, null for a deleted account. */
export const conversationDtoSchema = z.object({
  id: z.string(),
  participant1Id: z.string().nullable(),
  participant2Id: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ConversationDto = z.infer<typeof conversationDtoSchema>;

/** A conversation as the list returns it, with the other participant and the last message. */
export const conversationSummarySchema = conversationDtoSchema.extend({
  otherParticipant: participantSchema,
  lastMessage: messageDtoSchema.nullable(),
  /** The last message is from the other person and unread (the list's blue dot, the badge); never for a request. */
  unread: z.boolean(),
  /** A stranger's first messages waiting for my answer ('Demandes'): no badge, no toast until accepted. */
  request: z.boolean(),
});
export type ConversationSummaryDto = z.infer<typeof conversationSummarySchema>;

/** `POST /api/conversations` → 201 created, 200 existing. */
export const conversationResponseSchema = z.object({ conversation: conversationDtoSchema });
/** `GET /api/conversations/:id` */
export const conversationSummaryResponseSchema = z.object({ conversation: conversationSummarySchema });

/** `GET /api/conversations` */
export const conversationListSchema = z.object({
  conversations: z.array(conversationSummarySchema),
  /** Pass as `before` for the next (older) page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type ConversationListResult = z.infer<typeof conversationListSchema>;

/** `GET /api/conversations/:id/messages`: oldest first. */
export const messagePageSchema = z.object({
  messages: z.array(messageDtoSchema),
  /** More messages exist before the first one returned (with `before`) or after the last (with `after`). */
  hasMore: z.boolean(),
});
export type MessagePageResult = z.infer<typeof messagePageSchema>;

/** `GET /api/conversations/unread`: ids of conversations whose last message is unread and from the other party (at most 100). */
export const unreadConversationsSchema = z.object({ conversationIds: z.array(z.string()) });
export type UnreadConversationsResult = z.infer<typeof unreadConversationsSchema>;

/** `POST /api/conversations/:id/messages` → 201 */
export const sentMessageResponseSchema = z.object({ message: messageDtoSchema });

/** `POST /api/conversations/:id/read` */
export const markReadSchema = z.object({
  /** How many of the other party's messages this call marked read. */
  updated: z.number(),
});
export type MarkReadResult = z.infer<typeof markReadSchema>;

/**
 * Realtime events (server/src/realtime/hub.ts), sent to both participants' sockets only.
 * - `message.created`: a new message, with its sender for the toast.
 * - `message.read`: `readerId` has read every message of the other party in the conversation
 *   up to `upTo` (ISO date, inclusive).
 * - `conversation.updated`: a conversation appeared or moved to the top of the list.
 * - `message.request`: to a request's recipient instead of the two above (their sender gets those).
 * - `conversation.closed`: to the one left when the other deletes their account.
 */
export interface MessageCreatedEvent {
  message: MessageDto;
  sender: ParticipantDto;
}
/** `conversation.closed`: the other person deleted their account; the conversation stays, read-only. */
export interface ConversationClosedEvent {
  conversationId: string;
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
/** `message.request`: a request came or grew; the recipient refetches 'Demandes'. */
export interface MessageRequestEvent {
  conversationId: string;
}
