/**
 * Conversations and messages (spec §3 Conversation and Message, §7 conversations, messages).
 *
 * - One conversation per pair of people, the smaller id first. Opening one is idempotent and
 *   race-free: the insert meets the unique pair index and, when the pair exists, turns into a
 *   no-op update that returns the existing row, so concurrent "Contacter" clicks make one row.
 * - Only the two participants see a conversation; to anyone else it does not exist (404), so
 *   ids cannot be probed.
 * - Messages are ordered by (created_at, id) and paged by keyset on that pair; a message's
 *   insert moves its conversation's updated_at in the same transaction, so the list order and
 *   the last message always agree.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  CONVERSATIONS_PAGE_SIZE,
  MESSAGES_PAGE_MAX,
  MESSAGES_PAGE_SIZE,
  type ConversationDto,
  type ConversationListResult,
  type ConversationSummaryDto,
  type MessageDto,
  type MessagePageResult,
  type ParticipantDto,
} from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { badRequest, notFound } from '../../errors.ts';
import { parseIsoUtc } from '../../http/strict-time.ts';

/** The most conversation ids the unread query returns: enough for the badge's '99+'. */
export const UNREAD_IDS_MAX = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

const iso = (value: string | Date) => new Date(value).toISOString();

interface ConversationRow {
  id: string;
  participant1_id: string;
  participant2_id: string;
  created_at: string | Date;
  updated_at: string | Date;
}

function toConversationDto(row: ConversationRow): ConversationDto {
  return {
    id: row.id,
    participant1Id: row.participant1_id,
    participant2Id: row.participant2_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

interface MessageRow {
  id: string;
  conversation_id: string;
  sender_id: string;
  content: string;
  image_url: string | null;
  read: boolean;
  created_at: string | Date;
}

function toMessageDto(row: MessageRow): MessageDto {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    senderId: row.sender_id,
    content: row.content,
    imageUrl: row.image_url,
    read: row.read,
    createdAt: iso(row.created_at),
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
  const row = result.rows[0] as unknown as ConversationRow & { created: boolean };
  return { conversation: toConversationDto(row), created: row.created === true };
}

/** The two participants of a conversation `userId` belongs to; 404 for anyone else. */
export async function requireParticipant(db: Db, conversationId: unknown, userId: string): Promise<ConversationDto> {
  if (!isUuid(conversationId)) throw notFound('conversation_not_found');
  const result = await db.execute(sql`
    select id, participant1_id, participant2_id, created_at, updated_at from conversations
    where id = ${conversationId} and (participant1_id = ${userId} or participant2_id = ${userId})`);
  const row = result.rows[0] as unknown as ConversationRow | undefined;
  if (!row) throw notFound('conversation_not_found');
  return toConversationDto(row);
}

export const otherParticipantId = (conversation: ConversationDto, userId: string) =>
  conversation.participant1Id === userId ? conversation.participant2Id : conversation.participant1Id;

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

interface SummaryRow extends ConversationRow {
  other_id: string;
  other_nickname: string;
  other_photo_url: string | null;
  last_id: string | null;
  last_sender_id: string | null;
  last_content: string | null;
  last_image_url: string | null;
  last_read: boolean | null;
  last_created_at: string | Date | null;
}

function toSummary(row: SummaryRow, userId: string): ConversationSummaryDto {
  const lastMessage = row.last_id
    ? toMessageDto({
        id: row.last_id,
        conversation_id: row.id,
        sender_id: row.last_sender_id!,
        content: row.last_content ?? '',
        image_url: row.last_image_url,
        read: row.last_read === true,
        created_at: row.last_created_at!,
      })
    : null;
  const other: ParticipantDto = { id: row.other_id, nickname: row.other_nickname, profilePhotoUrl: row.other_photo_url };
  return {
    ...toConversationDto(row),
    otherParticipant: other,
    lastMessage,
    unread: lastMessage !== null && lastMessage.senderId !== userId && !lastMessage.read,
  };
}

/**
 * The other participant and the last message of the conversations in `mine` (a subquery of
 * conversation rows with an `other_id` column), newest updated first.
 */
function summaries(mine: SQL, limit: number): SQL {
  return sql`
    select c.id, c.participant1_id, c.participant2_id, c.created_at, c.updated_at,
           p.id as other_id, p.username as other_nickname, coalesce(p.avatar_url, p.profile_photo_url) as other_photo_url,
           lm.id as last_id, lm.sender_id as last_sender_id, lm.content as last_content, lm.image_url as last_image_url,
           lm.read as last_read, lm.created_at as last_created_at
    from (${mine}) c
    join profiles p on p.id = c.other_id
    left join lateral (
      select m.id, m.sender_id, m.content, m.image_url, m.read, m.created_at from messages m
      where m.conversation_id = c.id order by m.created_at desc, m.id desc limit 1
    ) lm on true
    order by c.updated_at desc, c.id desc
    limit ${limit}`;
}

/**
 * My conversations, newest updated first, a page at a time. Each side of the pair has its own
 * (participant, updated_at) index, so the two halves are read in order and merged.
 */
export async function listConversations(db: Db, userId: string, options: { before?: unknown; limit?: number } = {}): Promise<ConversationListResult> {
  const limit = Math.min(Math.max(1, options.limit ?? CONVERSATIONS_PAGE_SIZE), CONVERSATIONS_PAGE_SIZE);
  const cursor = decodeListCursor(options.before);
  const after = cursor ? sql`and (updated_at, id) < (${cursor.updatedAt}::timestamptz, ${cursor.id}::uuid)` : sql``;
  const side = (me: SQL, other: SQL) => sql`(
    select id, participant1_id, participant2_id, created_at, updated_at, ${other} as other_id from conversations
    where ${me} = ${userId} ${after} order by updated_at desc, id desc limit ${limit + 1})`;
  const mine = sql`${side(sql`participant1_id`, sql`participant2_id`)} union all ${side(sql`participant2_id`, sql`participant1_id`)}`;
  const result = await db.execute(summaries(mine, limit + 1));
  const rows = result.rows as unknown as SummaryRow[];
  const page = rows.slice(0, limit).map((row) => toSummary(row, userId));
  const last = page.at(-1);
  return { conversations: page, nextCursor: rows.length > limit && last ? encodeListCursor(last.updatedAt, last.id) : null };
}

/** One of my conversations as the list shows it (a conversation not yet in the loaded list). */
export async function getConversationSummary(db: Db, conversationId: unknown, userId: string): Promise<ConversationSummaryDto> {
  const conversation = await requireParticipant(db, conversationId, userId);
  const mine = sql`select id, participant1_id, participant2_id, created_at, updated_at, ${otherParticipantId(conversation, userId)}::uuid as other_id
    from conversations where id = ${conversation.id}`;
  const result = await db.execute(summaries(mine, 1));
  const row = result.rows[0] as unknown as SummaryRow | undefined;
  if (!row) throw notFound('conversation_not_found');
  return toSummary(row, userId);
}

/**
 * Conversations whose last message is unread and from the other party (the badge), newest
 * first, at most 100. Only conversations holding an unread message from the other party are
 * looked at (partial index on unread messages), then their last message decides.
 */
export async function unreadConversationIds(db: Db, userId: string): Promise<string[]> {
  const result = await db.execute(sql`
    select c.id from conversations c
    join lateral (
      select m.sender_id, m.read from messages m where m.conversation_id = c.id order by m.created_at desc, m.id desc limit 1
    ) lm on true
    where (c.participant1_id = ${userId} or c.participant2_id = ${userId})
      and exists (select 1 from messages u where u.conversation_id = c.id and u.sender_id <> ${userId} and not u.read)
      and lm.sender_id <> ${userId} and not lm.read
    order by c.updated_at desc, c.id desc
    limit ${UNREAD_IDS_MAX}`);
  return (result.rows as Array<{ id: string }>).map((row) => row.id);
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
export async function listMessages(db: Db, conversationId: string, options: PageOptions = {}): Promise<MessagePageResult> {
  const limit = pageLimit(options.limit);
  if (options.before !== undefined && options.after !== undefined) throw badRequest('bad_request');
  const cursorId = options.before ?? options.after;
  let anchor = sql``;
  if (cursorId !== undefined) {
    if (!isUuid(cursorId)) throw badRequest('bad_request');
    const found = await db.execute(sql`select 1 from messages where id = ${cursorId} and conversation_id = ${conversationId}`);
    if (found.rows.length === 0) throw notFound('not_found');
    const op = options.after !== undefined ? sql`>` : sql`<`;
    anchor = sql`and (m.created_at, m.id) ${op} (select created_at, id from messages where id = ${cursorId})`;
  }
  const forward = options.after !== undefined;
  const result = await db.execute(sql`
    select m.id, m.conversation_id, m.sender_id, m.content, m.image_url, m.read, m.created_at from messages m
    where m.conversation_id = ${conversationId} ${anchor}
    order by m.created_at ${forward ? sql`asc` : sql`desc`}, m.id ${forward ? sql`asc` : sql`desc`}
    limit ${limit + 1}`);
  const rows = result.rows as unknown as MessageRow[];
  const page = rows.slice(0, limit).map(toMessageDto);
  return { messages: forward ? page : page.reverse(), hasMore: rows.length > limit };
}

export interface SentMessage {
  message: MessageDto;
  sender: ParticipantDto;
}

/**
 * Stores a message and moves its conversation to the top of both lists in one statement, and
 * reads the sender's name and photo for the toast. clock_timestamp(), not now(): messages sent
 * in one burst still get distinct, ordered times.
 */
export async function insertMessage(db: Db, conversationId: string, senderId: string, content: string, imageUrl: string | null): Promise<SentMessage> {
  const result = await db.execute(sql`
    with m as (
      insert into messages (conversation_id, sender_id, content, image_url, created_at)
      values (${conversationId}, ${senderId}, ${content}, ${imageUrl}, clock_timestamp())
      returning id, conversation_id, sender_id, content, image_url, read, created_at
    ), touched as (
      update conversations set updated_at = (select created_at from m) where id = ${conversationId}
    )
    select m.*, p.username as sender_nickname, coalesce(p.avatar_url, p.profile_photo_url) as sender_photo_url
    from m join profiles p on p.id = m.sender_id`);
  const row = result.rows[0] as unknown as MessageRow & { sender_nickname: string; sender_photo_url: string | null };
  return {
    message: toMessageDto(row),
    sender: { id: row.sender_id, nickname: row.sender_nickname, profilePhotoUrl: row.sender_photo_url },
  };
}

/** Marks the other party's unread messages read; returns how many and the newest one's time. */
export async function markRead(db: Db, conversationId: string, readerId: string): Promise<{ updated: number; upTo: string | null }> {
  const result = await db.execute(sql`
    update messages set read = true
    where conversation_id = ${conversationId} and sender_id <> ${readerId} and not read
    returning created_at`);
  const times = (result.rows as Array<{ created_at: string | Date }>).map((row) => new Date(row.created_at).getTime());
  return { updated: times.length, upTo: times.length ? new Date(Math.max(...times)).toISOString() : null };
}
