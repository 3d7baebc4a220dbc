/**
 * Conversations and messages (docs/product.md, Messages).
 *
 * - One conversation per pair of people, the smaller id first. Opening one is idempotent and
 *   race-free: the insert meets the unique pair index and, when the pair exists, turns into a
 *   no-op update that returns the existing row, so concurrent "Contacter" clicks make one row.
 * - Only the two participants see a conversation; to anyone else it does not exist (404), so
 *   ids cannot be probed.
 * - Each side has its box (ConversationSide): the one who opens a conversation has it accepted,
 *   the other gets it as a request ('Demandes': no badge, no toast, no push) until they accept or
 *   reply; a request they delete is gone for them only, and what its sender writes later stays
 *   out of their sight unless they contact them. Conversations from before count as accepted.
 * - A conversation whose other person deleted their account stays, closed: that side is null,
 *   shown as 'Compte supprimé' with no profile, and nobody can write in it (account/deletion.ts).
 * - Messages are ordered by (created_at, id) and paged by keyset on that pair; a message's
 *   insert (send-batches.ts) moves its conversation's updated_at in the same statement, so the
 *   list order and the last message always agree.
 */
import { and, asc, desc, eq, exists, ne, not, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  CONVERSATIONS_PAGE_SIZE,
  MESSAGES_PAGE_MAX,
  MESSAGES,
  MESSAGES_PAGE_SIZE,
  type ConversationDto,
  type ConversationListResult,
  type ConversationSummaryDto,
  type MessageDto,
  type MessagePageResult,
  isUnreadFor,
} from '@moodmap/core';
import { alias, unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { conversations, messages, profiles, type ConversationSide } from '../../db/schema.ts';
import { badRequest, notFound } from '../../errors.ts';
import { parseIsoUtc } from '../../http/strict-time.ts';

/** The most conversation ids the unread query returns: enough for the badge's '99+'. */
export const UNREAD_IDS_MAX = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

const iso = (value: string | Date) => new Date(value).toISOString();

type ConversationRow = typeof conversations.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

function toConversationDto(
  row: Pick<ConversationRow, 'id' | 'participant1Id' | 'participant2Id' | 'createdAt' | 'updatedAt'>,
): ConversationDto {
  return {
    id: row.id,
    participant1Id: row.participant1Id,
    participant2Id: row.participant2Id,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A stored message as the API gives it (a raw statement's times may come as strings). */
export function toMessageDto(row: Omit<MessageRow, 'createdAt'> & { createdAt: string | Date }): MessageDto {
  return {
    id: row.id,
    conversationId: row.conversationId,
    senderId: row.senderId,
    content: row.content,
    imageUrl: row.imageUrl,
    read: row.read,
    createdAt: iso(row.createdAt),
  };
}

export interface OpenedConversation {
  conversation: ConversationDto;
  /** False when the pair already had one. */
  created: boolean;
}

/** `userId`'s side of a conversation row, as SQL. */
const mySide = (userId: string) =>
  sql<ConversationSide>`(case when ${conversations.participant1Id} = ${userId}::uuid then ${conversations.participant1State} else ${conversations.participant2State} end)`;

/** Sets `userId`'s side to `state`, leaving the other side as it is. */
const setMySide = (userId: string, state: ConversationSide) => ({
  participant1State: sql`case when ${conversations.participant1Id} = ${userId}::uuid then ${state} else ${conversations.participant1State} end`,
  participant2State: sql`case when ${conversations.participant2Id} = ${userId}::uuid then ${state} else ${conversations.participant2State} end`,
});

/**
 * The conversation between `userId` and `otherId` (someone else: mayOpenConversation), created on
 * first contact: accepted for the one who opens it, a request for the other. Opening one that was
 * a request accepts it.
 */
export async function openConversation(db: Db, userId: string, otherId: string): Promise<OpenedConversation> {
  const [other] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, otherId)).limit(1);
  if (!other) throw notFound('profile_not_found');
  // `xmax = 0` holds for a row this statement inserted, not for one it updated.
  const [row] = await db
    .insert(conversations)
    .values({
      participant1Id: sql`least(${userId}::uuid, ${otherId}::uuid)`,
      participant2Id: sql`greatest(${userId}::uuid, ${otherId}::uuid)`,
      participant1State: sql`case when ${userId}::uuid < ${otherId}::uuid then 'accepted' else 'request' end`,
      participant2State: sql`case when ${userId}::uuid < ${otherId}::uuid then 'request' else 'accepted' end`,
    })
    .onConflictDoUpdate({
      target: [conversations.participant1Id, conversations.participant2Id],
      set: { updatedAt: sql`${conversations.updatedAt}`, ...setMySide(userId, 'accepted') },
    })
    .returning({
      id: conversations.id,
      participant1Id: conversations.participant1Id,
      participant2Id: conversations.participant2Id,
      createdAt: conversations.createdAt,
      updatedAt: conversations.updatedAt,
      created: sql<boolean>`(xmax = 0)`,
    });
  return { conversation: toConversationDto(row), created: row.created === true };
}

/** A conversation `userId` belongs to and has not deleted, with their side; 404 for anyone else. */
export async function requireSide(
  db: Db,
  conversationId: unknown,
  userId: string,
): Promise<{ conversation: ConversationDto; side: ConversationSide }> {
  if (!isUuid(conversationId)) throw notFound('conversation_not_found');
  const [row] = await db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.id, conversationId),
        or(eq(conversations.participant1Id, userId), eq(conversations.participant2Id, userId)),
        ne(mySide(userId), 'deleted'),
      ),
    )
    .limit(1);
  if (!row) throw notFound('conversation_not_found');
  return {
    conversation: toConversationDto(row),
    side: row.participant1Id === userId ? row.participant1State : row.participant2State,
  };
}

/** The two participants of a conversation `userId` belongs to; 404 for anyone else. */
export async function requireParticipant(db: Db, conversationId: unknown, userId: string): Promise<ConversationDto> {
  return (await requireSide(db, conversationId, userId)).conversation;
}

/** Accepts a request (nothing to do when already accepted); 404 when it is not one of mine. */
export async function acceptRequest(db: Db, conversationId: unknown, userId: string): Promise<ConversationDto> {
  const { conversation, side } = await requireSide(db, conversationId, userId);
  if (side === 'request')
    await db.update(conversations).set(setMySide(userId, 'accepted')).where(eq(conversations.id, conversation.id));
  return conversation;
}

/** Removes a request for me only; 404 when `conversationId` is not a request of mine. */
export async function deleteRequest(db: Db, conversationId: unknown, userId: string): Promise<void> {
  if (!isUuid(conversationId)) throw notFound('request_not_found');
  const rows = await db
    .update(conversations)
    .set(setMySide(userId, 'deleted'))
    .where(
      and(
        eq(conversations.id, conversationId),
        or(eq(conversations.participant1Id, userId), eq(conversations.participant2Id, userId)),
        eq(mySide(userId), 'request'),
      ),
    )
    .returning({ id: conversations.id });
  if (!rows.length) throw notFound('request_not_found');
}

/** The other person's id; null once their account is deleted. */
export const otherParticipantId = (conversation: ConversationDto, userId: string) =>
  conversation.participant1Id === userId ? conversation.participant2Id : conversation.participant1Id;

/** The participants still here, who hear of what happens in a conversation. */
export const presentParticipants = (conversation: ConversationDto): string[] =>
  [conversation.participant1Id, conversation.participant2Id].filter((id): id is string => id !== null);

/** `sender` is not `userId`, a deleted account included (`<>` is never true against null). */
const notFrom = (sender: SQLWrapper, userId: string) => sql`${sender} is distinct from ${userId}::uuid`;

/** List cursor: the last row's updated_at and id, opaque to clients. */
export function encodeListCursor(updatedAt: string, id: string): string {
  return Buffer.from(`${updatedAt}|${id}`).toString('base64url');
}

function decodeListCursor(cursor: unknown): { updatedAt: string; id: string } | null {
  if (cursor === undefined || cursor === '') return null;
  if (typeof cursor !== 'string') throw badRequest('bad_request');
  const parts = Buffer.from(cursor, 'base64url').toString().split('|');
  const [updatedAt, id] = parts;
  // Only the exact time this server wrote: Date.parse also reads 'March 7' or year 0, which
  // PostgreSQL refuses (a 500).
  if (parts.length !== 2 || !isUuid(id) || !parseIsoUtc(updatedAt)) throw badRequest('bad_request');
  return { updatedAt, id };
}

/**
 * Conversation rows with the other participant's id: what every summary starts from. Each side
 * of the pair has its own (participant, updated_at) index, so a list reads both in order.
 */
function withOther(db: Db, otherId: SQL, side: SQL, where: SQL | undefined) {
  return db
    .select({
      id: conversations.id,
      participant1Id: conversations.participant1Id,
      participant2Id: conversations.participant2Id,
      createdAt: conversations.createdAt,
      updatedAt: conversations.updatedAt,
      otherId: sql<string | null>`${otherId}`.as('other_id'),
      side: sql<ConversationSide>`${side}`.as('side'),
    })
    .from(conversations)
    .where(where);
}
type Mine = ReturnType<ReturnType<typeof withOther>['as']>;

/**
 * The other participant and the last message of the conversations in `c`, newest updated
 * first: one lateral read of the newest message per conversation. A deleted other participant
 * has no profile left: no id, no photo, 'Compte supprimé'.
 */
async function summaries(db: Db, c: Mine, userId: string, limit: number): Promise<ConversationSummaryDto[]> {
  const lm = db
    .select({
      id: messages.id,
      senderId: messages.senderId,
      content: messages.content,
      imageUrl: messages.imageUrl,
      read: messages.read,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(eq(messages.conversationId, c.id))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1)
    .as('lm');
  const rows = await db
    .select({
      conversation: {
        id: c.id,
        participant1Id: c.participant1Id,
        participant2Id: c.participant2Id,
        createdAt: c.createdAt,
        updatedAt: c.updatedAt,
      },
      otherId: profiles.id,
      otherNickname: sql<string>`coalesce(${profiles.username}, ${MESSAGES.account_erased_name}::text)`,
      otherPhotoUrl: sql<string | null>`coalesce(${profiles.avatarUrl}, ${profiles.profilePhotoUrl})`,
      lastId: lm.id,
      lastSenderId: lm.senderId,
      lastContent: lm.content,
      lastImageUrl: lm.imageUrl,
      lastRead: lm.read,
      lastCreatedAt: lm.createdAt,
      side: c.side,
    })
    .from(c)
    .leftJoin(profiles, eq(profiles.id, c.otherId))
    .leftJoinLateral(lm, sql`true`)
    .orderBy(desc(c.updatedAt), desc(c.id))
    .limit(limit);
  return rows.map((row) => {
    const lastMessage =
      row.lastId && row.lastCreatedAt
        ? toMessageDto({
            id: row.lastId,
            conversationId: row.conversation.id,
            senderId: row.lastSenderId,
            content: row.lastContent ?? '',
            imageUrl: row.lastImageUrl,
            read: row.lastRead === true,
            createdAt: row.lastCreatedAt,
          })
        : null;
    return {
      ...toConversationDto(row.conversation),
      otherParticipant: { id: row.otherId, nickname: row.otherNickname, profilePhotoUrl: row.otherPhotoUrl },
      lastMessage,
      unread: isUnreadFor(userId, row.side === 'accepted', lastMessage),
      request: row.side === 'request',
    };
  });
}

/**
 * My conversations ('accepted') or my requests ('request', only those holding a message), newest
 * updated first, a page at a time.
 */
export async function listConversations(
  db: Db,
  userId: string,
  options: { before?: unknown; limit?: number; box?: 'accepted' | 'request' } = {},
): Promise<ConversationListResult> {
  const box = options.box ?? 'accepted';
  // A request shows once it holds a message.
  const hasMessage = exists(
    db.select({ one: sql`1` }).from(messages).where(eq(messages.conversationId, conversations.id)),
  );
  const limit = Math.min(Math.max(1, options.limit ?? CONVERSATIONS_PAGE_SIZE), CONVERSATIONS_PAGE_SIZE);
  const cursor = decodeListCursor(options.before);
  const after = cursor
    ? sql`(${conversations.updatedAt}, ${conversations.id}) < (${cursor.updatedAt}::timestamptz, ${cursor.id}::uuid)`
    : undefined;
  type Participant = typeof conversations.participant1Id | typeof conversations.participant2Id;
  type State = typeof conversations.participant1State | typeof conversations.participant2State;
  const side = (me: Participant, state: State, other: Participant) =>
    withOther(
      db,
      sql`${other}`,
      sql`${state}`,
      and(eq(me, userId), eq(state, box), after, box === 'request' ? hasMessage : undefined),
    )
      .orderBy(desc(conversations.updatedAt), desc(conversations.id))
      .limit(limit + 1);
  const mine = unionAll(
    side(conversations.participant1Id, conversations.participant1State, conversations.participant2Id),
    side(conversations.participant2Id, conversations.participant2State, conversations.participant1Id),
  ).as('c');
  const rows = await summaries(db, mine, userId, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    conversations: page,
    nextCursor: rows.length > limit && last ? encodeListCursor(last.updatedAt, last.id) : null,
  };
}

/** One of my conversations as the list shows it (a conversation not yet in the loaded list). */
export async function getConversationSummary(
  db: Db,
  conversationId: unknown,
  userId: string,
): Promise<ConversationSummaryDto> {
  const conversation = await requireParticipant(db, conversationId, userId);
  const mine = withOther(
    db,
    sql`${otherParticipantId(conversation, userId)}::uuid`,
    mySide(userId),
    eq(conversations.id, conversation.id),
  ).as('c');
  const [summary] = await summaries(db, mine, userId, 1);
  if (!summary) throw notFound('conversation_not_found');
  return summary;
}

/**
 * Accepted conversations whose last message is unread and from the other party (the badge, core's
 * isUnreadFor in SQL), newest first, at most 100. Only conversations holding an unread message from the other party are
 * looked at (partial index on unread messages), then their last message decides.
 */
export async function unreadConversationIds(db: Db, userId: string): Promise<string[]> {
  const last = db
    .select({ senderId: messages.senderId, read: messages.read })
    .from(messages)
    .where(eq(messages.conversationId, conversations.id))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1)
    .as('lm');
  const unread = alias(messages, 'u');
  const rows = await db
    .select({ id: conversations.id })
    .from(conversations)
    .innerJoinLateral(last, sql`true`)
    .where(
      and(
        or(eq(conversations.participant1Id, userId), eq(conversations.participant2Id, userId)),
        eq(mySide(userId), 'accepted'),
        exists(
          db
            .select({ one: sql`1` })
            .from(unread)
            .where(
              and(eq(unread.conversationId, conversations.id), notFrom(unread.senderId, userId), not(unread.read)),
            ),
        ),
        notFrom(last.senderId, userId),
        not(last.read),
      ),
    )
    .orderBy(desc(conversations.updatedAt), desc(conversations.id))
    .limit(UNREAD_IDS_MAX);
  return rows.map((row) => row.id);
}

export interface PageOptions {
  /** A message id: the page just before it. */
  before?: unknown;
  /** A message id: the messages after it (catch-up after a reconnect). */
  after?: unknown;
  limit?: unknown;
}

function pageLimit(value: unknown): number {
  if (value === undefined || value === '') return MESSAGES_PAGE_SIZE;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw badRequest('bad_request');
  return Math.min(n, MESSAGES_PAGE_MAX);
}

/**
 * A page of a conversation's messages, oldest first: the latest page by default, the page
 * before `before`, or what came after `after`. A cursor that is not a message of this
 * conversation is refused rather than silently read as "from the start".
 */
export async function listMessages(
  db: Db,
  conversationId: string,
  options: PageOptions = {},
): Promise<MessagePageResult> {
  const limit = pageLimit(options.limit);
  if (options.before !== undefined && options.after !== undefined) throw badRequest('bad_request');
  const cursorId = options.before ?? options.after;
  let anchor: SQL | undefined;
  if (cursorId !== undefined) {
    if (!isUuid(cursorId)) throw badRequest('bad_request');
    const [found] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.id, cursorId), eq(messages.conversationId, conversationId)))
      .limit(1);
    if (!found) throw notFound('not_found');
    const op = options.after !== undefined ? sql`>` : sql`<`;
    anchor = sql`(${messages.createdAt}, ${messages.id}) ${op} (select created_at, id from messages where id = ${cursorId})`;
  }
  const forward = options.after !== undefined;
  const order = forward ? asc : desc;
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), anchor))
    .orderBy(order(messages.createdAt), order(messages.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit).map(toMessageDto);
  return { messages: forward ? page : page.reverse(), hasMore: rows.length > limit };
}

/** Marks the other party's unread messages read; returns how many and the newest one's time. */
export async function markRead(
  db: Db,
  conversationId: string,
  readerId: string,
): Promise<{ updated: number; upTo: string | null }> {
  const rows = await db
    .update(messages)
    .set({ read: true })
    .where(and(eq(messages.conversationId, conversationId), notFrom(messages.senderId, readerId), not(messages.read)))
    .returning({ createdAt: messages.createdAt });
  const times = rows.map((row) => row.createdAt.getTime());
  return { updated: times.length, upTo: times.length ? new Date(Math.max(...times)).toISOString() : null };
}
