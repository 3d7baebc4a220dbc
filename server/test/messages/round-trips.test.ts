/**
 * What one message send costs the database: the statements it sends, counted at the
 * driver on a real database. The session is remembered (sessions.ts), the participant check is
 * part of the insert, and one event (one NOTIFY on PostgreSQL) carries both realtime frames:
 * with the rate-limit counters in Redis, a send is the insert and the NOTIFY; with the
 * counters in the database, their upsert comes on top. The in-process bus of PGlite sends nothing.
 * The recipient's push devices are read once, then remembered (push/known-devices.ts).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member } from '../interactions/fixtures.ts';
import { browserSubscription, pushesTo, suitePushService } from '../push/push-service.ts';

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
    const push = suitePushService();
    if (redis)
      Object.assign(push.config, {
        redisUrl: process.env.REDIS_URL,
        redisPrefix: `moodmap-test:${randomBytes(4).toString('hex')}:`,
      });
    const t = suiteAuthApp(engine, push.config);

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
      // Marc's phone: each push reaching it says its device lookup, if any, is over.
      const phone = browserSubscription(push.service());
      const subscribed = await call(t, {
        method: 'POST',
        url: '/api/push/subscriptions',
        token: marc.token,
        payload: { endpoint: phone.endpoint, keys: phone.keys },
      });
      expect(subscribed.statusCode, subscribed.body).toBe(201);
      const pushes = () => pushesTo(push.service(), phone).length;
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
      await expect.poll(pushes).toBe(1);
      expect(pushReads()).toBe(1);

      const arrived: string[] = [];
      const unsubscribe = t.app.ctx.bus.subscribe((event) => {
        if (event.type === 'message.created')
          arrived.push((event.data as { message: { content: string } }).message.content);
      });
      const from = recorder.statements.length;
      const sent = await send('second');
      // What the send itself cost, up to its answer.
      const beforeAnswer = kinds().slice(from);
      // The event comes back through the bus once its NOTIFY has run; the push follows it.
      await expect.poll(() => arrived).toContain('second');
      await expect.poll(pushes).toBe(2);
      const window = kinds().slice(from);
      recorder.stop();
      unsubscribe();

      expect(sent.statusCode).toBe(201);
      const expected = [...(redis ? [] : ['counter']), 'insert', ...(engine === 'postgres' ? ['notify'] : [])];
      expect(beforeAnswer).toEqual(expected);
      // Nothing else, not even a read of Marc's devices: the first push's read is remembered.
      expect(window).toEqual(expected);
    });
  },
);
