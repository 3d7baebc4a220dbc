/**
 * Group commit of message sends (send-batches.ts): the sends of one moment are stored
 * by one statement and announced by one publish, yet each keeps its own answer, its place in
 * the order and its single delivery; a refused or failing send leaves the others stored.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { MessageDto } from '@moodmap/core';
import type { RealtimeEvent } from '../../src/adapters/bus/types.ts';
import type { Database } from '../../src/db/client.ts';
import {
  createMessageWriter,
  STORE_WITHIN_MS,
  type MessageToSend,
  type MessageWriter,
} from '../../src/modules/messages/send-batches.ts';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, type Member } from '../interactions/fixtures.ts';

type Query = (...args: unknown[]) => unknown;

/** Counts the inserts into messages the database client is sent from now on. */
function countInserts(database: Database): { count: () => number; stop: () => void } {
  const client: { query: Query } = database.pool ?? (database.db as unknown as { $client: { query: Query } }).$client;
  const original = client.query;
  let inserts = 0;
  client.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : String((first as { text?: string }).text);
    if (/insert into messages/i.test(text)) inserts++;
    return original.apply(this, args);
  };
  return {
    count: () => inserts,
    stop: () => {
      client.query = original;
    },
  };
}

describe.each(engines)('message sends written together on %s', (engine) => {
  const t = suiteAuthApp(engine);

  async function conversationOf(a: Member, b: Member): Promise<string> {
    const res = await call(t, { method: 'POST', url: '/api/conversations', token: a.token, payload: { userId: b.id } });
    expect([200, 201]).toContain(res.statusCode);
    return res.json().conversation.id;
  }
  const thread = async (who: Member, id: string) => {
    const res = await call(t, { method: 'GET', url: `/api/conversations/${id}/messages?limit=100`, token: who.token });
    expect(res.statusCode).toBe(200);
    return (res.json().messages as MessageDto[]).map((m) => m.content);
  };
  const writer = (publishErrors: unknown[] = []): MessageWriter =>
    createMessageWriter({
      db: t.database.db,
      pool: t.database.pool,
      bus: t.app.ctx.bus,
      onPublishError: (e) => publishErrors.push(e),
    });
  const heard = () => {
    const created: string[] = [];
    const marks = new Set<unknown>();
    const stop = t.app.ctx.bus.subscribe((event: RealtimeEvent) => {
      if (event.type === 'message.created') created.push((event.data as { message: MessageDto }).message.content);
      if (event.type === 'test.mark') marks.add(event.data);
    });
    /** Everything published before this call has been heard: the bus keeps the order. */
    const caughtUp = async () => {
      const mark = Math.random();
      await t.app.ctx.bus.publish({ type: 'test.mark', data: mark });
      await expect.poll(() => marks.has(mark)).toBe(true);
    };
    return { created, stop, caughtUp };
  };
  const message = (from: Member, conversationId: string, content: string): MessageToSend => ({
    conversationId,
    senderId: from.id,
    content,
    imageUrl: null,
    now: t.clock.now(),
    storeBy: new Date(Date.now() + STORE_WITHIN_MS),
  });

  it('stores the sends of one moment in one statement, each answered with its own message, in order, each announced once', async () => {
    const [lea, marc, zoe] = [await member(t), await member(t), await member(t)];
    const leaMarc = await conversationOf(lea, marc);
    const zoeMarc = await conversationOf(zoe, marc);
    const w = writer();
    const events = heard();
    const inserts = countInserts(t.database);
    const sends = [
      message(lea, leaMarc, 'un'),
      message(marc, leaMarc, 'deux'),
      message(zoe, zoeMarc, 'trois'),
      message(lea, leaMarc, 'quatre'),
      message(marc, zoeMarc, 'cinq'),
      message(lea, leaMarc, 'six'),
    ];
    const sent = await Promise.all(sends.map((s) => w.send(s)));
    inserts.stop();

    expect(inserts.count()).toBe(1);
    expect(sent.map((s) => s?.message.content)).toEqual(['un', 'deux', 'trois', 'quatre', 'cinq', 'six']);
    expect(sent.map((s) => s?.message.senderId)).toEqual(sends.map((s) => s.senderId));
    expect(sent.map((s) => s?.sender.nickname)).toEqual([lea, marc, zoe, lea, marc, lea].map((m) => m.username));
    expect(new Set(sent.map((s) => s?.message.id)).size).toBe(6);
    expect(await thread(lea, leaMarc)).toEqual(['un', 'deux', 'quatre', 'six']);
    expect(await thread(zoe, zoeMarc)).toEqual(['trois', 'cinq']);
    // Each conversation moved to its own last message.
    const summary = (await call(t, { method: 'GET', url: `/api/conversations/${leaMarc}`, token: lea.token })).json()
      .conversation;
    expect(summary.lastMessage.content).toBe('six');
    expect(summary.updatedAt).toBe(sent[5]?.message.createdAt);
    await events.caughtUp();
    events.stop();
    expect(events.created).toEqual(['un', 'deux', 'trois', 'quatre', 'cinq', 'six']);
  });

  it('answers a refused send with nothing and fails only the send the database rejects; the others are stored', async () => {
    const [lea, marc, zoe, noe] = [await member(t), await member(t), await member(t), await member(t)];
    const leaMarc = await conversationOf(lea, marc);
    const zoeNoe = await conversationOf(zoe, noe);
    // Noé blocked Zoé after they had talked: their conversation takes no more messages.
    await t.database.db.execute(
      sql`insert into user_blocks (blocker_id, blocked_id) values (${noe.id}::uuid, ${zoe.id}::uuid)`,
    );
    const w = writer();
    const events = heard();
    const results = await Promise.allSettled([
      w.send(message(lea, leaMarc, 'avant')),
      w.send(message(zoe, leaMarc, 'intrusion')), // not a participant
      w.send(message(zoe, zoeNoe, 'bloquée')),
      // Past the column's check (2 000 characters): the database refuses this row, so the batch.
      w.send(message(marc, leaMarc, 'x'.repeat(2001))),
      w.send(message(marc, leaMarc, 'après')),
    ]);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const value = (i: number) =>
      results[i].status === 'fulfilled'
        ? (results[i] as PromiseFulfilledResult<{ message: MessageDto } | null>).value
        : undefined;
    expect(value(0)?.message.content).toBe('avant');
    expect(value(1)).toBeNull();
    expect(value(2)).toBeNull();
    expect(value(4)?.message.content).toBe('après');
    expect(await thread(lea, leaMarc)).toEqual(['avant', 'après']);
    expect(await thread(zoe, zoeNoe)).toEqual([]);
    await expect.poll(() => events.created.length).toBe(2);
    events.stop();
    expect(events.created).toEqual(['avant', 'après']);
  });

  it('does not store a send that reaches the database after its time, answers it 503 with a retry, and stores the others', async () => {
    const [lea, marc] = [await member(t), await member(t)];
    const id = await conversationOf(lea, marc);
    const w = writer();
    const events = heard();
    // Held up on the way (its host cut off from the database) until its sender gave up on it.
    const late = { ...message(lea, id, 'trop tard'), storeBy: new Date(Date.now() - 1) };
    const results = await Promise.allSettled([
      w.send(message(lea, id, 'un')),
      w.send(late),
      w.send(message(marc, id, 'deux')),
    ]);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const refusal = results[1].status === 'rejected' ? results[1].reason : null;
    expect(refusal).toMatchObject({ status: 503, code: 'database_error', headers: { 'retry-after': '1' } });
    expect(refusal.message).toBe('Erreur de base de données. Veuillez réessayer dans quelques instants.');
    expect(await thread(lea, id)).toEqual(['un', 'deux']);
    await events.caughtUp();
    events.stop();
    expect(events.created).toEqual(['un', 'deux']);
  });

  it('answers each of many concurrent HTTP sends with its own message, all stored', async () => {
    const [lea, marc] = [await member(t), await member(t)];
    const id = await conversationOf(lea, marc);
    const contents = Array.from({ length: 12 }, (_, i) => `message ${i}`);
    const answers = await Promise.all(
      contents.map((content, i) =>
        call(t, {
          method: 'POST',
          url: `/api/conversations/${id}/messages`,
          token: (i % 2 ? marc : lea).token,
          payload: { content },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(contents.map(() => 201));
    expect(answers.map((a) => a.json().message.content)).toEqual(contents);
    expect(answers.map((a) => a.json().message.senderId)).toEqual(contents.map((_, i) => (i % 2 ? marc : lea).id));
    expect((await thread(lea, id)).sort()).toEqual([...contents].sort());
  });

  it('answers a send once its notification is out, and writes the sends that came meanwhile together after it', async () => {
    const [lea, marc] = [await member(t), await member(t)];
    const id = await conversationOf(lea, marc);
    // Accepted on both sides: each send is one message event (a request adds a quiet one).
    expect(await conversationOf(marc, lea)).toBe(id);
    const bus = t.app.ctx.bus;
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const announced: string[][] = [];
    const order: string[] = [];
    const held = createMessageWriter({
      db: t.database.db,
      pool: t.database.pool,
      onPublishError: () => {},
      bus: {
        ...bus,
        publishMany: async (events) => {
          const contents = events.map((e) => (e.data as { message: MessageDto }).message.content);
          announced.push(contents);
          await gate;
          await bus.publishMany(events);
          order.push(`out ${contents.join('+')}`);
        },
      },
    });
    const send = (who: Member, content: string) =>
      held.send(message(who, id, content)).then((sent) => {
        order.push(`answered ${sent?.message.content}`);
        return sent;
      });
    const inserts = countInserts(t.database);
    const first = send(lea, 'un');
    await expect.poll(() => announced.length).toBe(1);
    // The first notification is held: its sender waits, and the sends meanwhile queue up.
    const later = [send(marc, 'deux'), send(lea, 'trois')];
    expect(order).toEqual([]);
    expect(inserts.count()).toBe(1);
    open();
    await Promise.all([first, ...later]);
    inserts.stop();
    expect(inserts.count()).toBe(2);
    expect(announced).toEqual([['un'], ['deux', 'trois']]);
    // A sender's next message, even through another instance, is announced after this one.
    expect(order).toEqual(['out un', 'answered un', 'out deux+trois', 'answered deux', 'answered trois']);
    expect(await thread(lea, id)).toEqual(['un', 'deux', 'trois']);
  });
});

describe.runIf(engines.includes('postgres'))('batches of two instances sharing conversations on PostgreSQL', () => {
  const t = suiteAuthApp('postgres');

  it('store every message of both (each batch locks its conversations in one order)', async () => {
    const people = [await member(t), await member(t), await member(t), await member(t), await member(t)];
    const pairs: Array<{ a: Member; b: Member; id: string }> = [];
    for (let i = 0; i < people.length; i++) {
      for (let j = i + 1; j < people.length; j++) {
        const res = await call(t, {
          method: 'POST',
          url: '/api/conversations',
          token: people[i].token,
          payload: { userId: people[j].id },
        });
        pairs.push({ a: people[i], b: people[j], id: res.json().conversation.id });
      }
    }
    // Two writers, as two instances have: each writes its batches while the other does.
    const [one, two] = [0, 1].map(() =>
      createMessageWriter({ db: t.database.db, bus: t.app.ctx.bus, onPublishError: () => {} }),
    );
    const rounds = Array.from({ length: 8 }, async (_, round) => {
      const forward = pairs.map((p) =>
        one.send({
          conversationId: p.id,
          senderId: p.a.id,
          content: `a${round}`,
          imageUrl: null,
          now: t.clock.now(),
          storeBy: new Date(Date.now() + STORE_WITHIN_MS),
        }),
      );
      const backward = [...pairs].reverse().map((p) =>
        two.send({
          conversationId: p.id,
          senderId: p.b.id,
          content: `b${round}`,
          imageUrl: null,
          now: t.clock.now(),
          storeBy: new Date(Date.now() + STORE_WITHIN_MS),
        }),
      );
      return Promise.all([...forward, ...backward]);
    });
    const sent = (await Promise.all(rounds)).flat();

    expect(sent.every((s) => s !== null)).toBe(true);
    const { rows } = await t.database.db.execute(
      sql`select count(*)::int as n from messages where conversation_id = any(${`{${pairs.map((p) => p.id).join(',')}}`}::uuid[])`,
    );
    expect((rows[0] as { n: number }).n).toBe(8 * 2 * pairs.length);
  });
});
