/**
 * The LISTEN/NOTIFY bus when its listening connection is lost: terminated by PostgreSQL, cut
 * by a restart or failover (the database unreachable for a while), or silently dead. Each
 * instance must hear events published after the database is back, with one listener each.
 * How long resubscribing took is printed, not asserted (timing goals live in bench/).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createPostgresBus } from '../../src/adapters/bus/postgres.ts';
import type { EventBus, RealtimeEvent } from '../../src/adapters/bus/types.ts';
import type { Database } from '../../src/db/client.ts';
import { createTestDatabase, engines } from '../helpers/databases.ts';
import { createTcpProxy, terminateBackends, type TcpProxy } from '../helpers/db-faults.ts';

/** Publishes a fresh event on `from` every 20 ms until `to` hears one; returns the ms it took. */
async function timeUntilHeard(from: EventBus, to: EventBus, deadlineMs = 15_000): Promise<number> {
  const started = performance.now();
  let heard = false;
  const stop = to.subscribe((event) => {
    if (event.type === 'probe') heard = true;
  });
  try {
    while (!heard) {
      if (performance.now() - started > deadlineMs) throw new Error(`no event heard within ${deadlineMs} ms`);
      await from.publish({ type: 'probe', data: { at: performance.now() } }).catch(() => {});
      await new Promise((r) => setTimeout(r, 20));
    }
    return Math.round(performance.now() - started);
  } finally {
    stop();
  }
}

/** Every event `bus` hears, for asserting what arrived and how often. */
function record(bus: EventBus): RealtimeEvent[] {
  const events: RealtimeEvent[] = [];
  bus.subscribe((event) => events.push(event));
  return events;
}

async function listeners(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'moodmap_bus'`);
    return rows[0].n as number;
  } finally {
    await admin.end();
  }
}

describe.runIf(engines.includes('postgres'))('the PostgreSQL bus when its connection is lost', () => {
  let database: Database;
  let url: string;
  let proxy: TcpProxy;
  const buses: EventBus[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    url = database.connectionString!;
    proxy = await createTcpProxy(url);
  }, 60_000);
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
    await proxy.restore();
  });
  afterAll(async () => {
    await proxy?.close();
    await database?.close();
  });

  const bus = async (connectionString: string, options = {}) => {
    const created = await createPostgresBus(connectionString, database.pool!, options);
    buses.push(created);
    return created;
  };

  it('resubscribes both instances after their backends are terminated, once each', async () => {
    const [first, second] = [await bus(url), await bus(url)];
    expect(await listeners(url)).toBe(2);

    const killed = await terminateBackends(url, 'moodmap_bus');
    expect(killed).toHaveLength(2);
    const [toFirst, toSecond] = [await timeUntilHeard(second, first), await timeUntilHeard(first, second)];
    console.log(`bus: resubscribed after pg_terminate_backend in ≤ ${toFirst} ms (first), ≤ ${toSecond} ms (second)`);

    // One listener each: an event is heard once by each instance, not twice by one.
    expect(await listeners(url)).toBe(2);
    const [heardByFirst, heardBySecond] = [record(first), record(second)];
    await first.publish({ type: 'post.liked', data: { postId: 'p1', likesCount: 3 } });
    await second.publish({ type: 'post.liked', data: { postId: 'p2', likesCount: 4 } });
    // (A late probe of the loop above may still arrive: only the likes are counted.)
    const likes = (events: RealtimeEvent[]) => events.filter((e) => e.type === 'post.liked').map((e) => e.data);
    await expect.poll(() => likes(heardByFirst).length).toBe(2);
    await expect.poll(() => likes(heardBySecond).length).toBe(2);
    expect(likes(heardByFirst)).toEqual([{ postId: 'p1', likesCount: 3 }, { postId: 'p2', likesCount: 4 }]);
    expect(likes(heardBySecond)).toEqual(likes(heardByFirst));
  }, 60_000);

  it("tells each instance's own observers of its own publishes only (a push is sent once, not once per instance)", async () => {
    const [first, second] = [await bus(url), await bus(url)];
    const [ownFirst, ownSecond]: RealtimeEvent[][] = [[], []];
    first.observeOwn((e) => ownFirst.push(e));
    second.observeOwn((e) => ownSecond.push(e));
    first.observeOwn(() => {
      throw new Error('an observer that fails');
    });
    const heardBySecond = record(second);
    await first.publish({ type: 'message.created', data: { id: 'm1' } });
    await second.publish({ type: 'message.created', data: { id: 'm2' } });
    // Both instances hear both events on the bus…
    await expect.poll(() => heardBySecond.filter((e) => e.type === 'message.created').length).toBe(2);
    // …but each observed only what it published, and the failing observer failed nothing.
    expect(ownFirst.map((e) => e.data)).toEqual([{ id: 'm1' }]);
    expect(ownSecond.map((e) => e.data)).toEqual([{ id: 'm2' }]);
  }, 60_000);

  it('hears events again once an unreachable database is back', async () => {
    // The first instance reaches PostgreSQL through the proxy, the second directly.
    const [behind, direct] = [await bus(proxy.via(url)), await bus(url)];
    await proxy.cut();
    // Down long enough for several reconnection attempts to be refused.
    await new Promise((r) => setTimeout(r, 2000));
    const heardWhileDown = record(behind);
    await direct.publish({ type: 'lost', data: {} });

    await proxy.restore();
    const took = await timeUntilHeard(direct, behind);
    console.log(`bus: resubscribed ≤ ${took} ms after the database came back (goal < 1000 ms)`);
    expect(heardWhileDown.filter((e) => e.type === 'lost')).toEqual([]);
    expect(await listeners(url)).toBe(2);
  }, 60_000);

  it('notices a listening connection that died silently and replaces it', async () => {
    const [behind, direct] = [await bus(proxy.via(url), { checkIntervalMs: 200 }), await bus(url)];
    expect(await timeUntilHeard(direct, behind)).toBeGreaterThanOrEqual(0);
    // The link stops carrying bytes without closing: no error, no end, no FIN.
    proxy.silenceLiveConnections();
    const took = await timeUntilHeard(direct, behind);
    console.log(`bus: silent link replaced, events heard again after ≤ ${took} ms`);
  }, 60_000);
});
