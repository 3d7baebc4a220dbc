/**
 * What every bus promises, on every engine: one publisher's events in order, routing fields
 * intact, handlers given copies, oversized events refused alike, own publishes observed once.
 * Remote engines (PostgreSQL LISTEN/NOTIFY, Redis pub/sub) also: each instance listens again
 * after its server ends its connection, after the server was unreachable, and after its link
 * died silently; it is told it resumed (BUS_RESUMED); nothing published in the gap is replayed,
 * and a publish the server never got is refused to its caller.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBus } from '../../src/adapters/bus/index.ts';
import { announceInstances } from '../../src/adapters/bus/presence.ts';
import { BUS_RESUMED, type EventBus, type RealtimeEvent } from '../../src/adapters/bus/types.ts';
import { testConfig } from '../../src/config.ts';
import { createTestDatabase } from '../helpers/databases.ts';
import { createTcpProxy, type TcpProxy } from '../helpers/db-faults.ts';
import { busEngines, type BusEngine, type RemoteEngine } from './engines.ts';

/** Every event `bus` hears. */
function record(bus: EventBus): RealtimeEvent[] {
  const events: RealtimeEvent[] = [];
  bus.subscribe((event) => events.push(event));
  return events;
}

const ofType = (events: RealtimeEvent[], type: string) => events.filter((e) => e.type === type);

let probes = 0;

/**
 * Publishes a probe on `from` every poll until `to` hears one (the link is back). The probes are
 * this call's own: one a previous call left in flight proves nothing.
 */
async function untilHeard(from: EventBus, to: EventBus): Promise<void> {
  const call = ++probes;
  const heard = record(to);
  const mine = () => ofType(heard, 'probe').filter((e) => JSON.stringify(e.data) === JSON.stringify({ call }));
  await expect
    .poll(
      async () => {
        await from.publish({ type: 'probe', data: { call } }).catch(() => {});
        return mine().length;
      },
      { timeout: 15_000, interval: 20 },
    )
    .toBeGreaterThan(0);
}

/** Events of about `bytes` each: a batch of them needs several payloads. */
const numbered = (count: number, from = 0, bytes = 120): RealtimeEvent[] =>
  Array.from({ length: count }, (_, i) => ({ type: 'test.n', data: { n: from + i, pad: 'x'.repeat(bytes) } }));

const numbers = (events: RealtimeEvent[]) => ofType(events, 'test.n').map((e) => (e.data as { n: number }).n);

describe.each(busEngines())('the $name bus', (engine: BusEngine) => {
  const buses: EventBus[] = [];
  beforeAll(() => engine.setup(), 60_000);
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });
  afterAll(() => engine.teardown());

  const bus = async (options = {}) => {
    const created = engine.name === 'in-process' ? await engine.bus() : await engine.bus(options);
    buses.push(created);
    return created;
  };
  /** A publisher and a listener: two instances on a remote engine, the one bus in-process. */
  const pair = async (): Promise<[EventBus, EventBus]> => {
    const first = await bus();
    return [first, engine.name === 'in-process' ? first : await bus()];
  };

  it("delivers one publisher's events in order, awaited publishes and batches of several payloads alike", async () => {
    const [publisher, listener] = await pair();
    const [heard, heardBack] = [record(listener), record(publisher)];
    for (const event of numbered(20)) await publisher.publish(event);
    await publisher.publishMany(numbered(300, 20));
    await publisher.publish(numbered(1, 320)[0]);
    const all = Array.from({ length: 321 }, (_, n) => n);
    await expect.poll(() => numbers(heard).length).toBe(321);
    expect(numbers(heard)).toEqual(all);
    await expect.poll(() => numbers(heardBack)).toEqual(all);
  });

  it('delivers the routing fields intact, and handlers get copies as they would from a wire', async () => {
    const [publisher, listener] = await pair();
    const heard = record(listener);
    const event: RealtimeEvent = {
      type: 'message.created',
      data: { id: 'm1', at: new Date('2025-06-01T12:00:00Z'), text: 'Salut 👋 « à bientôt »' },
      targets: ['u1', 'u2'],
      at: { latitude: 48.85, longitude: 2.35 },
      about: ['u1'],
      more: [{ type: 'conversation.updated', data: { id: 'c1' } }],
      except: 'socket-1',
    };
    await publisher.publish(event);
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toEqual({
      ...event,
      data: { id: 'm1', at: '2025-06-01T12:00:00.000Z', text: 'Salut 👋 « à bientôt »' },
    });
    expect(heard[0]).not.toBe(event);
  });

  it('refuses an event over the size limit, and a batch delivers the others in order', async () => {
    const [publisher, listener] = await pair();
    const heard = record(listener);
    const huge: RealtimeEvent = { type: 'test.huge', data: 'é'.repeat(4000) };
    await expect(publisher.publish(huge)).rejects.toThrow('realtime event too large: test.huge');
    await expect(publisher.publishMany([...numbered(2), huge, ...numbered(2, 2)])).rejects.toThrow(
      'realtime event too large: test.huge',
    );
    await publisher.publish({ type: 'test.end', data: null });
    await expect.poll(() => ofType(heard, 'test.end').length).toBe(1);
    expect(numbers(heard)).toEqual([0, 1, 2, 3]);
    expect(ofType(heard, 'test.huge')).toEqual([]);
  });

  it('stops calling a handler once it unsubscribed', async () => {
    const [publisher, listener] = await pair();
    const kept = record(listener);
    const dropped: RealtimeEvent[] = [];
    const unsubscribe = listener.subscribe((event) => dropped.push(event));
    await publisher.publish(numbered(1)[0]);
    await expect.poll(() => dropped.length).toBe(1);
    unsubscribe();
    await publisher.publish(numbered(1, 1)[0]);
    await expect.poll(() => numbers(kept)).toEqual([0, 1]);
    expect(numbers(dropped)).toEqual([0]);
  });

  if (engine.name === 'in-process') {
    it('tells its own observers of each publish, synchronously, and a failing observer fails nothing', async () => {
      const only = await bus();
      const observed: RealtimeEvent[] = [];
      only.observeOwn((e) => observed.push(e));
      only.observeOwn(() => {
        throw new Error('an observer that fails');
      });
      const publishing = only.publish({ type: 'message.created', data: { id: 'm1' } });
      expect(observed.map((e) => e.data)).toEqual([{ id: 'm1' }]);
      await publishing;
    });
    return;
  }

  const remote: RemoteEngine = engine;

  it("tells each instance's own observers of its own publishes only (a push is sent once, not once per instance)", async () => {
    const [first, second] = [await bus(), await bus()];
    const [ownFirst, ownSecond]: RealtimeEvent[][] = [[], []];
    first.observeOwn((e) => ownFirst.push(e));
    second.observeOwn((e) => ownSecond.push(e));
    first.observeOwn(() => {
      throw new Error('an observer that fails');
    });
    const heardBySecond = record(second);
    await first.publish({ type: 'message.created', data: { id: 'm1' } });
    await second.publish({ type: 'message.created', data: { id: 'm2' } });
    await expect.poll(() => ofType(heardBySecond, 'message.created').length).toBe(2);
    expect(ownFirst.map((e) => e.data)).toEqual([{ id: 'm1' }]);
    expect(ownSecond.map((e) => e.data)).toEqual([{ id: 'm2' }]);
  });

  it('lets instances count one another, and no handler or observer sees their announcements', async () => {
    const counts: number[][] = [[], []];
    const [first, second] = [
      announceInstances(await bus(), { onCount: (n) => counts[0].push(n) }),
      announceInstances(await bus(), { onCount: (n) => counts[1].push(n) }),
    ];
    buses.push(first, second);
    const [heard, observed]: RealtimeEvent[][] = [record(first), []];
    first.observeOwn((e) => observed.push(e));
    await expect.poll(() => counts.map((c) => c.at(-1))).toEqual([2, 2]);
    await first.publish({ type: 'test.end', data: null });
    await expect.poll(() => heard.map((e) => e.type)).toEqual(['test.end']);
    expect(observed.map((e) => e.type)).toEqual(['test.end']);
  });

  if (remote.name === 'postgres') {
    it('warns once, naming REDIS_URL, when a second instance shares the bus without it', async () => {
      const database = await createTestDatabase('postgres');
      const [withRedis, without]: string[][] = [[], []];
      try {
        const first = await createBus(testConfig({ redisUrl: 'redis://127.0.0.1:6379' }), database, {
          warn: (m) => withRedis.push(m),
        });
        buses.push(first);
        buses.push(await createBus(testConfig(), database, { warn: (m) => without.push(m) }));
        await expect
          .poll(() => without)
          .toEqual([expect.stringMatching(/^2 instances partagent ce bus sans REDIS_URL/)]);
        expect(withRedis).toEqual([]);
      } finally {
        await Promise.all(buses.splice(0).map((b) => b.close()));
        await database.close();
      }
    });
  }

  describe('when its link fails', () => {
    let proxy: TcpProxy;
    beforeAll(async () => {
      proxy = await createTcpProxy(remote.serverUrl());
    });
    afterEach(() => proxy.restore());
    afterAll(() => proxy.close());

    it('listens again on both instances after the server ends their connections, once each, and tells each it resumed', async () => {
      const [first, second] = [await bus(), await bus()];
      const heard = [record(first), record(second)];
      expect(await remote.listeners()).toBe(2);

      expect(await remote.killListeners()).toBe(2);
      await untilHeard(second, first);
      await untilHeard(first, second);
      expect(heard.map((events) => ofType(events, BUS_RESUMED).length)).toEqual([1, 1]);

      // One listener each: an event is heard once by each instance, not twice by one.
      expect(await remote.listeners()).toBe(2);
      const [heardByFirst, heardBySecond] = [record(first), record(second)];
      await first.publish({ type: 'post.liked', data: { postId: 'p1', likesCount: 3 } });
      await second.publish({ type: 'post.liked', data: { postId: 'p2', likesCount: 4 } });
      const likes = (events: RealtimeEvent[]) => ofType(events, 'post.liked').map((e) => e.data);
      await expect.poll(() => likes(heardByFirst).length).toBe(2);
      await expect.poll(() => likes(heardBySecond).length).toBe(2);
      expect(likes(heardByFirst)).toEqual([
        { postId: 'p1', likesCount: 3 },
        { postId: 'p2', likesCount: 4 },
      ]);
      expect(likes(heardBySecond)).toEqual(likes(heardByFirst));
    });

    it('hears events again once an unreachable server is back, without replaying what it missed', async () => {
      const [behind, direct] = [await bus({ serverUrl: proxy.via(remote.serverUrl()) }), await bus()];
      const heard = record(behind);
      await proxy.cut();
      await direct.publish({ type: 'lost', data: {} });
      await proxy.restore();
      await untilHeard(direct, behind);
      expect(ofType(heard, BUS_RESUMED).length).toBeGreaterThanOrEqual(1);
      expect(ofType(heard, 'lost')).toEqual([]);
      expect(await remote.listeners()).toBe(2);
    });

    it('refuses a publish while the server is unreachable: it is never delivered later', async () => {
      const [behind, direct] = [await bus({ serverUrl: proxy.via(remote.serverUrl()) }), await bus()];
      const heard = record(direct);
      await untilHeard(behind, direct);
      await proxy.cut();
      await expect(behind.publish({ type: 'unsent', data: {} })).rejects.toThrow();
      await proxy.restore();
      await untilHeard(behind, direct);
      expect(ofType(heard, 'unsent')).toEqual([]);
    });

    it('never delivers later a publish that timed out on a link gone silent', async () => {
      const [behind, direct] = [await bus({ serverUrl: proxy.via(remote.serverUrl()) }), await bus()];
      const heard = record(direct);
      await untilHeard(behind, direct);
      const release = proxy.holdLiveConnections();
      await expect(behind.publish({ type: 'timed-out', data: {} })).rejects.toThrow();
      release();
      await untilHeard(behind, direct);
      expect(ofType(heard, 'timed-out')).toEqual([]);
    });

    it('notices a listening connection that died silently and replaces it', async () => {
      const [behind, direct] = [
        await bus({ serverUrl: proxy.via(remote.serverUrl()), checkIntervalMs: 200 }),
        await bus(),
      ];
      const heard = record(behind);
      await untilHeard(direct, behind);
      // The link stops carrying bytes without closing: no error, no end, no FIN.
      void proxy.silenceLiveConnections();
      await untilHeard(direct, behind);
      expect(ofType(heard, BUS_RESUMED).length).toBeGreaterThanOrEqual(1);
    });
  });
});
