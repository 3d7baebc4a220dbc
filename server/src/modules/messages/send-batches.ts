/**
 * Group commit of message sends. A send's cost is mostly per statement: the
 * insert's round trip and commit, then its NOTIFY's. Sends that arrive while this instance's
 * previous batch is being written and announced wait for it and are then written together:
 * one statement (one commit) stores them all, and one NOTIFY (or a few, under the payload
 * limit) carries all their events. A lone send at a quiet time is written at once, so it
 * waits no longer than it did alone (one turn of the event loop).
 *
 * Each send keeps its own answer: a refused one (not a participant, blocked, suspended, the other
 * person's account deleted) comes back null without touching the others; a batch the database
 * rejects as a whole is retried one send at a time, so only the send at fault fails. A batch's
 * messages are stored in arrival order with increasing times, and batches follow each other, so
 * sends from one conversation keep their order; so do their events, each NOTIFY going out after
 * the previous batch's.
 */
import { randomUUID } from 'node:crypto';
import { fillPlaceholders, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import {
  MESSAGES,
  MESSAGE_EVENTS,
  SECOND,
  type ConversationUpdatedEvent,
  type MessageCreatedEvent,
  type MessageDto,
  type MessageRequestEvent,
  type ParticipantDto,
  termsAt,
} from '@moodmap/core';
import type { EventBus, RealtimeEvent } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import type { ConversationSide } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { sendAllowedSql } from '../../policies/messages.ts';
import { toMessageDto } from './service.ts';

export interface MessageToSend {
  conversationId: string;
  senderId: string;
  content: string;
  imageUrl: string | null;
  /** The app's clock at the request: a suspension is judged against it. */
  now: Date;
  /**
   * Real time after which the message is no longer stored. A send held up (this host cut off
   * from the database) may be given up by its sender, who then sends a newer message through
   * another instance: storing the old one afterwards would put it after the newer one.
   */
  storeBy: Date;
  /** The socket that sent it, if one did (store-message.ts): left out of its event. */
  origin?: string;
}

export interface SentMessage {
  message: MessageDto;
  /** Someone writing: never a deleted account. */
  sender: ParticipantDto & { id: string };
  /** The conversation's two people: who the realtime event goes to. */
  participants: [string, string];
  /** The recipient's side once stored: a request tells them quietly, a deleted one not at all. */
  recipientSide: ConversationSide;
  origin?: string;
}

const dialect = new PgDialect();

/** How long after its send is handed to the writer a message may still be stored. */
export const STORE_WITHIN_MS = 5 * SECOND;

/** A send the database took too long to take: like a database that is down, it may be retried. */
function notStoredInTime(): AppError {
  return new AppError(503, 'database_error', MESSAGES.database_error, { 'retry-after': '1' });
}

/** The most sends one statement writes (its JSON parameter stays far below a megabyte). */
const MAX_BATCH = 200;

interface SentRow {
  ord: number;
  id: string;
  conversationId: string;
  senderId: string;
  content: string;
  imageUrl: string | null;
  read: boolean;
  // A raw statement's timestamps come back as the driver gives them (a Date or a string).
  createdAt: Date | string;
  senderNickname: string;
  senderPhotoUrl: string | null;
  participant1Id: string;
  participant2Id: string;
  recipientSide: ConversationSide;
}

/**
 * Stores each message its sender may send (policies/messages.ts, sendAllowedSql, row by row: one
 * of the two participants, the other one still there, not suspended or banned, terms accepted, not
 * in a pair where one blocked the other);
 * moves each conversation to the top of both lists and accepts it for each sender (a
 * reply accepts a request); reads each sender's name and photo for the toast, and the
 * recipient's side. One statement for the whole batch
 * (data-modifying CTEs, `rows`: the batch as one JSON parameter).
 * clock_timestamp() plus the row's rank in microseconds: distinct times, in arrival order.
 */
function batchStatement(rows: SQL | Placeholder): SQL {
  return sql`
    with input as (
      select * from json_to_recordset(${rows}::json)
        as i(ord int, id uuid, conversation_id uuid, sender_id uuid, content text, image_url text, at timestamptz, terms_version text, store_by timestamptz)
    ), c as (
      select i.*, conv.participant1_id, conv.participant2_id from input i
      join conversations conv on conv.id = i.conversation_id
      where ${sendAllowedSql(sql`i.sender_id`, sql`i.at`, sql`i.terms_version`)}
        and clock_timestamp() < i.store_by
      -- The conversations are locked in one order by every batch: two instances writing
      -- batches that share conversations would otherwise each hold a row the other waits
      -- for (a deadlock, found only after deadlock_timeout, 1 s).
      order by conv.id for no key update of conv
    ), m as (
      insert into messages (id, conversation_id, sender_id, content, image_url, created_at)
      select c.id, c.conversation_id, c.sender_id, c.content, c.image_url, clock_timestamp() + c.ord * interval '1 microsecond'
      from c order by c.ord
      returning id, conversation_id, sender_id, content, image_url, read, created_at
    ), touched as (
      update conversations set updated_at = latest.at,
        participant1_state = case when conversations.participant1_id = any(latest.senders) then 'accepted' else conversations.participant1_state end,
        participant2_state = case when conversations.participant2_id = any(latest.senders) then 'accepted' else conversations.participant2_state end
      from (select conversation_id, max(created_at) as at, array_agg(sender_id) as senders from m group by conversation_id) latest
      where conversations.id = latest.conversation_id
      returning conversations.id, conversations.participant1_id, conversations.participant1_state, conversations.participant2_state
    )
    select c.ord, m.id, m.conversation_id as "conversationId", m.sender_id as "senderId", m.content, m.image_url as "imageUrl",
           m.read, m.created_at as "createdAt", p.username as "senderNickname",
           coalesce(p.avatar_url, p.profile_photo_url) as "senderPhotoUrl",
           c.participant1_id as "participant1Id", c.participant2_id as "participant2Id",
           case when m.sender_id = t.participant1_id then t.participant2_state else t.participant1_state end as "recipientSide"
    from m join c on c.id = m.id join profiles p on p.id = m.sender_id join touched t on t.id = m.conversation_id`;
}

/**
 * On PostgreSQL the statement is prepared (per pool connection, by name): the server parses and
 * analyses it once per connection, and its text is made once per process; each batch only fills
 * in its rows.
 */
const preparedBatch = dialect.sqlToQuery(batchStatement(sql.placeholder('rows')));

/** Stores the batch (batchStatement); null at a send's place: nothing stored (refused, or reaching the database after its storeBy). */
export async function insertMessages(
  db: Db,
  sends: MessageToSend[],
  pool?: pg.Pool,
): Promise<Array<SentMessage | null>> {
  const rows = JSON.stringify(
    sends.map((s, ord) => ({
      ord,
      id: randomUUID(),
      conversation_id: s.conversationId,
      sender_id: s.senderId,
      content: s.content,
      image_url: s.imageUrl,
      at: s.now.toISOString(),
      terms_version: termsAt(s.now).current.version,
      store_by: s.storeBy.toISOString(),
    })),
  );
  const result = pool
    ? await pool.query({
        name: 'messages_insert_batch',
        text: preparedBatch.sql,
        values: fillPlaceholders(preparedBatch.params, { rows }),
      })
    : await db.execute(batchStatement(sql`${rows}`));
  const sent: Array<SentMessage | null> = sends.map(() => null);
  for (const row of result.rows as SentRow[]) {
    const origin = sends[Number(row.ord)]?.origin;
    sent[Number(row.ord)] = {
      message: toMessageDto(row),
      sender: { id: row.senderId, nickname: row.senderNickname, profilePhotoUrl: row.senderPhotoUrl },
      participants: [row.participant1Id, row.participant2Id],
      recipientSide: row.recipientSide,
      ...(origin ? { origin } : {}),
    };
  }
  return sent;
}

/**
 * A stored message's realtime events: both frames (the message, the list's move) in one, to both
 * participants; for a request, to its sender only, its recipient getting the quiet
 * `message.request` (no toast, no push: push follows `message.created`'s targets).
 */
export function messageEvents(sent: SentMessage): RealtimeEvent[] {
  const created: MessageCreatedEvent = { message: sent.message, sender: sent.sender };
  const updated: ConversationUpdatedEvent = {
    conversationId: sent.message.conversationId,
    updatedAt: sent.message.createdAt,
  };
  const recipient = sent.participants.find((id) => id !== sent.sender.id) ?? sent.sender.id;
  const accepted = sent.recipientSide === 'accepted';
  const events: RealtimeEvent[] = [
    {
      type: MESSAGE_EVENTS.created,
      data: created,
      targets: accepted ? sent.participants : [sent.sender.id],
      // About both: once either blocks the other, neither hears of this conversation, even of a
      // message sent just before the block whose event is still on the bus.
      about: sent.participants,
      more: [{ type: MESSAGE_EVENTS.conversationUpdated, data: updated }],
      ...(sent.origin ? { except: sent.origin } : {}),
    },
  ];
  if (sent.recipientSide === 'request') {
    const request: MessageRequestEvent = { conversationId: sent.message.conversationId };
    events.push({ type: MESSAGE_EVENTS.request, data: request, targets: [recipient], about: sent.participants });
  }
  return events;
}

export interface MessageWriterDeps {
  db: Db;
  /** PostgreSQL's pool, when the app runs on it: the batch statement is prepared there. */
  pool?: pg.Pool;
  bus: EventBus;
  /** A failed publish never fails a send: the message is stored, clients catch up. */
  onPublishError: (error: unknown) => void;
}

export interface MessageWriter {
  /**
   * Stores the message (in the next batch) and announces it; null when refused. Rejects with a 503
   * when the message reached the database after its storeBy (then it is not stored).
   */
  send(message: MessageToSend): Promise<SentMessage | null>;
}

interface Waiting {
  message: MessageToSend;
  resolve: (sent: SentMessage | null) => void;
  reject: (error: unknown) => void;
}

export function createMessageWriter({ db, pool, bus, onPublishError }: MessageWriterDeps): MessageWriter {
  let queue: Waiting[] = [];
  let writing = false;
  let scheduled = false;
  /** Resolves once the events are out (a failed publish is reported, never thrown). */
  function announce(events: RealtimeEvent[]): Promise<void> {
    return events.length ? bus.publishMany(events).catch(onPublishError) : Promise.resolve();
  }

  async function write(batch: Waiting[]): Promise<void> {
    let results: Array<SentMessage | null | { error: unknown }>;
    try {
      results = await insertMessages(
        db,
        batch.map((w) => w.message),
        pool,
      );
    } catch (error) {
      if (batch.length === 1) {
        results = [{ error }];
      } else {
        // One bad send must not fail the others: each is tried alone, in order.
        results = [];
        for (const w of batch)
          results.push(
            await insertMessages(db, [w.message], pool).then(
              ([one]) => one,
              (e: unknown) => ({ error: e }),
            ),
          );
      }
    }
    // Null past its time: not stored because late, whatever else. Its sender may send it again.
    results = results.map((r, i) =>
      r === null && Date.now() >= batch[i].message.storeBy.getTime() ? { error: notStoredInTime() } : r,
    );
    const stored = results.filter((r): r is SentMessage => r !== null && !('error' in r));
    // The senders get their answers once the events are on the bus: a sender's next message,
    // perhaps sent through another instance, is then announced after this one. The next batch
    // waits too; under load the sends of that wait go in one batch: fewer statements per
    // message (the insert, its NOTIFY, the push lookup), which is what a busy database and
    // server spend most on. At a quiet time a send finds nothing under way and is written at once.
    await announce(stored.flatMap(messageEvents));
    batch.forEach((w, i) => {
      const r = results[i];
      if (r !== null && 'error' in r) w.reject(r.error);
      else w.resolve(r);
    });
  }

  async function drain(): Promise<void> {
    scheduled = false;
    if (writing) return;
    writing = true;
    try {
      while (queue.length) {
        const batch = queue.slice(0, MAX_BATCH);
        queue = queue.slice(batch.length);
        await write(batch).catch((error: unknown) => batch.forEach((w) => w.reject(error)));
      }
    } finally {
      writing = false;
    }
  }

  return {
    send(message) {
      return new Promise((resolve, reject) => {
        queue.push({ message, resolve, reject });
        // The sends parsed in this turn of the event loop join the first batch; later ones wait
        // for the batch being written, then go together.
        if (!writing && !scheduled) {
          scheduled = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
