/**
 * A burst of messages: the recipients' devices are looked up together, one statement
 * for the notices of a moment rather than one per message, and yet every message still reaches
 * every device of its recipient — two messages to one person make two pushes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { createMessageWriter, STORE_WITHIN_MS } from '../../src/modules/messages/send-batches.ts';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, type Member } from '../interactions/fixtures.ts';
import {
  browserSubscription,
  decryptPush,
  pushesTo,
  suitePushService,
  type BrowserSubscription,
  type PushService,
} from './push-service.ts';

type Query = (...args: unknown[]) => unknown;

/** Counts the reads of push_subscriptions the database client is sent from now on. */
function countDeviceLookups(database: Database): { count: () => number; stop: () => void } {
  const client: { query: Query } = database.pool ?? (database.db as unknown as { $client: { query: Query } }).$client;
  const original = client.query;
  let lookups = 0;
  client.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : String((first as { text?: string }).text);
    if (/^\s*select\b[\s\S]*\bfrom "push_subscriptions"/i.test(text)) lookups++;
    return original.apply(this, args);
  };
  return {
    count: () => lookups,
    stop: () => {
      client.query = original;
    },
  };
}

describe.each(engines)('a burst of messages pushed on %s', (engine) => {
  const push = suitePushService();
  const t = suiteAuthApp(engine, push.config);
  let service: PushService;
  beforeAll(() => {
    service = push.service();
  });

  async function subscribe(who: Member): Promise<BrowserSubscription> {
    const sub = browserSubscription(service);
    const res = await call(t, {
      method: 'POST',
      url: '/api/push/subscriptions',
      token: who.token,
      payload: { endpoint: sub.endpoint, expirationTime: null, keys: sub.keys },
    });
    expect(res.statusCode, res.body).toBe(201);
    return sub;
  }
  /** An accepted conversation: both have contacted the other (a request pushes nothing: requests.test.ts). */
  async function conversation(a: Member, b: Member): Promise<string> {
    const id = (
      await call(t, { method: 'POST', url: '/api/conversations', token: a.token, payload: { userId: b.id } })
    ).json().conversation.id;
    expect(
      (await call(t, { method: 'POST', url: '/api/conversations', token: b.token, payload: { userId: a.id } })).json()
        .conversation.id,
    ).toBe(id);
    return id;
  }
  const bodies = (sub: BrowserSubscription) =>
    pushesTo(service, sub)
      .map((p) => JSON.parse(decryptPush(p.body, sub)).body as string)
      .sort();

  it('looks the devices of a burst up together, and pushes each message to each device of its recipient', async () => {
    const marc = await member(t);
    const [lea, zoe, noe] = [await member(t), await member(t), await member(t)];
    const leaPhone = await subscribe(lea);
    const leaLaptop = await subscribe(lea);
    const zoePhone = await subscribe(zoe);
    // Noé has no device: his messages cost no push, and nobody else gets them.
    const to = {
      lea: await conversation(marc, lea),
      zoe: await conversation(marc, zoe),
      noe: await conversation(marc, noe),
    };
    const sends = [
      ['lea', 'Léa 1'],
      ['zoe', 'Zoé 1'],
      ['noe', 'Noé 1'],
      ['lea', 'Léa 2'],
      ['zoe', 'Zoé 2'],
      ['lea', 'Léa 3'],
      ['noe', 'Noé 2'],
      ['zoe', 'Zoé 3'],
    ] as const;
    const writer = createMessageWriter({ db: t.database.db, bus: t.app.ctx.bus, onPublishError: () => {} });
    const lookups = countDeviceLookups(t.database);
    try {
      const sent = await Promise.all(
        sends.map(([who, content]) =>
          writer.send({
            conversationId: to[who],
            senderId: marc.id,
            content,
            imageUrl: null,
            now: t.clock.now(),
            storeBy: new Date(Date.now() + STORE_WITHIN_MS),
          }),
        ),
      );
      expect(sent.every((s) => s !== null)).toBe(true);
      await expect.poll(() => service.received.length).toBe(3 * 2 + 3);
    } finally {
      lookups.stop();
    }
    expect(bodies(leaPhone)).toEqual(['Léa 1', 'Léa 2', 'Léa 3']);
    expect(bodies(leaLaptop)).toEqual(['Léa 1', 'Léa 2', 'Léa 3']);
    expect(bodies(zoePhone)).toEqual(['Zoé 1', 'Zoé 2', 'Zoé 3']);
    // The writer stores the first send alone and the seven that came meanwhile together: one
    // lookup each at most, where each message once cost its own.
    expect(lookups.count()).toBeGreaterThanOrEqual(1);
    expect(lookups.count()).toBeLessThanOrEqual(2);
  });
});
