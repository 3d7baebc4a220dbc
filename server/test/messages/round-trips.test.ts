/**
 * What one message send costs the database: the statements it sends, counted at the
 * driver on a real database. The session is remembered (sessions.ts), the participant check is
 * part of the insert, and one event (one NOTIFY on PostgreSQL) carries both realtime frames:
 * with the rate-limit counters in Redis, a send is the insert and the NOTIFY; with the
 * counters in the database, their upsert comes on top. The in-process bus of PGlite sends nothing.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member } from '../interactions/fixtures.ts';

type Query = (...args: unknown[]) => unknown;

/** Records the text of every statement the app sends through its database client from now on. */
function recordStatements(database: Database): { statements: string[]; stop: () => void } {
  // The pg pool on PostgreSQL; the PGlite instance drizzle holds otherwise.
  const client: { query: Query } = database.pool ?? (database.db as unknown as { $client: { query: Query } }).$client;
  const original = client.query;
  const statements: string[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    statements.push(typeof first === 'string' ? first : String((first as { text?: string }).text));
    return original.apply(this, args);
  };
  return {
    statements,
    stop: () => {
      client.query = original;
    },
  };
}

const cases = [
  ...engines.map((engine) => ({ engine, redis: false })),
  ...(engines.includes('postgres') && process.env.REDIS_URL ? [{ engine: 'postgres' as const, redis: true }] : []),
];

describe.each(cases)(
  'database round trips of a message send on $engine (counters in Redis: $redis)',
  ({ engine, redis }) => {
    const t = suiteAuthApp(
      engine,
      redis ? { redisUrl: process.env.REDIS_URL, redisPrefix: `moodmap-test:${randomBytes(4).toString('hex')}:` } : {},
    );

    it('sends the insert, the NOTIFY on PostgreSQL, and the counter upsert only when the counters are in the database', async () => {
      const lea = await member(t);
      const marc = await member(t);
      const id = (
        await call(t, { method: 'POST', url: '/api/conversations', token: lea.token, payload: { userId: marc.id } })
      ).json().conversation.id;
      // Marc contacted Léa too: an accepted conversation, whose messages are pushed.
      expect(
        (await call(t, { method: 'POST', url: '/api/conversations', token: marc.token, payload: { userId: lea.id } }))
          .statusCode,
      ).toBe(200);
      const send = (content: string) =>
        call(t, { method: 'POST', url: `/api/conversations/${id}/messages`, token: lea.token, payload: { content } });
      const recorder = recordStatements(t.database);
      const kinds = () =>
        recorder.statements.map((text) => {
          if (/insert into messages/i.test(text)) return 'insert';
          if (/pg_notify/i.test(text)) return 'notify';
          if (/rate_limits/i.test(text)) return 'counter';
          if (/from "push_subscriptions"/i.test(text)) return 'push devices';
          return text.slice(0, 60);
        });
      const pushReads = () => kinds().filter((k) => k === 'push devices').length;
      // The first request of a session looks it up; the sends after it do not. Its push lookup
      // (once its event is out) is over before the window below opens.
      expect((await send('premier')).statusCode).toBe(201);
      await expect.poll(pushReads).toBe(1);

      const arrived: string[] = [];
      const unsubscribe = t.app.ctx.bus.subscribe((event) => {
        if (event.type === 'message.created')
          arrived.push((event.data as { message: { content: string } }).message.content);
      });
      const from = recorder.statements.length;
      const sent = await send('second');
      // What the send itself cost, up to its answer.
      const beforeAnswer = kinds().slice(from);
      // The event comes back through the bus once its NOTIFY has run; the push lookup follows it.
      await expect.poll(() => arrived).toContain('second');
      await expect.poll(pushReads).toBe(2);
      const window = kinds().slice(from);
      recorder.stop();
      unsubscribe();

      expect(sent.statusCode).toBe(201);
      const expected = [...(redis ? [] : ['counter']), 'insert', ...(engine === 'postgres' ? ['notify'] : [])];
      // The push lookup runs beside the send (the answer does not wait for it), so it may come first.
      expect(beforeAnswer.filter((k) => k !== 'push devices')).toEqual(expected);
      // One indexed read of the recipient's devices for the Web Push, whether or not they have any.
      expect(window.filter((k) => k === 'push devices')).toEqual(['push devices']);
      expect(window.filter((k) => !expected.includes(k) && k !== 'push devices')).toEqual([]);
    });
  },
);
