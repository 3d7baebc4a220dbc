/**
 * Periodic work runs on one instance of a deployment at a time (adapters/leader): on PGlite the
 * only process; on PostgreSQL the holder of an advisory lock. Two instances on one real database:
 * only the leader runs a job; closing the leader, killing its connection, or cutting its link
 * silently hands the jobs to the other, which runs them at once. Observed by what the jobs do
 * (an expired post deleted and announced once) and by each instance's count of runs.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createLeader, type Leader } from '../../src/adapters/leader/index.ts';
import type { RealtimeEvent } from '../../src/adapters/bus/types.ts';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { profiles, publications, users } from '../../src/db/schema.ts';
import { freshEmail } from '../helpers/auth.ts';
import { createTestDatabase, engines } from '../helpers/databases.ts';
import { createFreezableProxy, type FreezableProxy } from './frozen-link.ts';

const quiet = { info: () => {}, warn: () => {} };

/** A probe job on `leader`, every 20 ms; its runs are read from the leader's status. */
function probe(leader: Leader): () => number {
  leader.every('test.probe', 20, async () => {});
  return () => leader.status().jobs['test.probe']?.runs ?? 0;
}

describe('on PGlite', () => {
  it('the one process leads at once and runs its jobs', async () => {
    const database = await createTestDatabase('pglite');
    const leader = await createLeader(database, quiet);
    try {
      expect(leader.isLeader()).toBe(true);
      const runs = probe(leader);
      await expect.poll(runs).toBeGreaterThanOrEqual(3);
      expect(leader.status().leading).toBe(true);
    } finally {
      await leader.close();
      await database.close();
    }
  });
});

// Only with TEST_DATABASE_URL: PGlite is one process, so it has no second instance.
describe.each(engines.filter((engine) => engine === 'postgres'))('two instances on one %s database', () => {
  const opened: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    // Last opened first: leaders and apps before the databases they use.
    for (const resource of opened.splice(0).reverse()) await resource.close();
  });

  const database = async (): Promise<Database> => {
    const created = await createTestDatabase('postgres');
    opened.push(created);
    return created;
  };
  /** Another Database object on the same database (`via` a proxy), as a second host would open. */
  const sameDatabase = async (of: Database, via?: FreezableProxy): Promise<Database> => {
    const url = of.connectionString ?? '';
    const created = await openDatabase({ databaseUrl: via ? via.via(url) : url, poolSize: 2 });
    opened.push(created);
    return created;
  };
  const leader = async (on: Database, options = {}): Promise<Leader> => {
    const created = await createLeader(on, quiet, options);
    opened.push(created);
    return created;
  };

  /** Backends of the database, by what they hold or wait for. */
  async function advisoryLocks(url: string): Promise<{ holder: number | null; waiting: number }> {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number; granted: boolean }>(
        `select pid, granted from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
      );
      return { holder: rows.find((r) => r.granted)?.pid ?? null, waiting: rows.filter((r) => !r.granted).length };
    } finally {
      await admin.end();
    }
  }

  async function terminate(url: string, pid: number): Promise<void> {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
  }

  it('lets only the leader run a job, and the other takes it over at once when the leader closes', async () => {
    const db = await database();
    const first = await leader(db);
    const second = await leader(await sameDatabase(db));
    expect([first.isLeader(), second.isLeader()]).toEqual([true, false]);
    const [firstRuns, secondRuns] = [probe(first), probe(second)];
    await expect.poll(firstRuns).toBeGreaterThanOrEqual(5);
    expect(secondRuns()).toBe(0);
    expect((await advisoryLocks(db.connectionString ?? '')).waiting).toBe(1);

    await first.close();
    // Granted by PostgreSQL as the lock is freed, and every job runs at once on taking over.
    await expect.poll(secondRuns).toBeGreaterThanOrEqual(1);
    expect(second.isLeader()).toBe(true);
  });

  it("hands over when the leader's connection is terminated, and the old leader waits its turn", async () => {
    const db = await database();
    const url = db.connectionString ?? '';
    const first = await leader(db);
    const second = await leader(await sameDatabase(db));
    const [firstRuns, secondRuns] = [probe(first), probe(second)];
    await expect.poll(firstRuns).toBeGreaterThanOrEqual(3);
    const { holder } = await advisoryLocks(url);
    expect(holder).not.toBeNull();

    await terminate(url, holder ?? 0);
    await expect.poll(() => second.isLeader()).toBe(true);
    expect(first.isLeader()).toBe(false);
    // The old leader reconnects and queues behind the new one.
    await expect.poll(async () => (await advisoryLocks(url)).waiting).toBe(1);
    const before = firstRuns();
    const handedAt = secondRuns();
    await expect.poll(secondRuns).toBeGreaterThanOrEqual(handedAt + 5);
    expect(firstRuns()).toBe(before);
    expect(first.isLeader()).toBe(false);
  });

  it('hands over when the leader lost its link silently: it steps down and ends its old connection', async () => {
    const db = await database();
    const url = db.connectionString ?? '';
    const proxy = await createFreezableProxy(url);
    opened.push(proxy);
    const first = await leader(await sameDatabase(db, proxy), { checkIntervalMs: 200 });
    const second = await leader(db, { checkIntervalMs: 200 });
    const secondRuns = probe(second);
    expect(first.isLeader()).toBe(true);

    // The link stops carrying bytes and never closes: PostgreSQL still sees the leader alive, and
    // only the old leader ending its former connection from a new one frees the lock.
    proxy.freeze();
    await expect.poll(() => first.isLeader(), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => second.isLeader(), { timeout: 10_000 }).toBe(true);
    await expect.poll(secondRuns).toBeGreaterThanOrEqual(1);
    expect(first.isLeader()).toBe(false);
  });

  describe('the sweepers of two app instances', () => {
    /** Two instances of one deployment on one database, the first leading. */
    async function twoApps(): Promise<{ db: Database; apps: [FastifyInstance, FastifyInstance] }> {
      const db = await database();
      const config = testConfig({ jwtSecret: 'deux-instances-un-secret-partagé-0123456789' });
      const apps: FastifyInstance[] = [];
      for (let i = 0; i < 2; i++) {
        const app = await buildApp(config, { database: await sameDatabase(db) });
        // A test may close an instance itself; closed once either way.
        let closing: Promise<void> | undefined;
        opened.push({ close: () => (closing ??= app.close()) });
        app.addHook('onClose', async () => {
          closing ??= Promise.resolve();
        });
        apps.push(app);
      }
      const [first, second] = apps;
      return { db, apps: [first, second] };
    }

    /** A post of a new member, published 24 h and a second ago: the sweeper's to delete. */
    async function expiredPost(db: Database): Promise<string> {
      const [user] = await db.db
        .insert(users)
        .values({ email: freshEmail(), passwordHash: 'jamais utilisé' })
        .returning({ id: users.id });
      await db.db.insert(profiles).values({ id: user.id, username: `membre_${user.id.slice(0, 8)}` });
      const [post] = await db.db
        .insert(publications)
        .values({
          userId: user.id,
          category: 'happy',
          content: 'Bientôt balayé',
          latitude: 48.8566,
          longitude: 2.3522,
          nickname: 'membre',
          createdAt: sql`now() - interval '24 hours 1 second'`,
        })
        .returning({ id: publications.id });
      return post.id;
    }

    const deletions = (events: RealtimeEvent[], id: string) =>
      events.filter((e) => e.type === 'post.deleted' && JSON.stringify(e.data).includes(id));

    it('sweep on the leader only, once, and on the other at once when the leader closes', async () => {
      const {
        db,
        apps: [first, second],
      } = await twoApps();
      const heard: RealtimeEvent[] = [];
      second.ctx.bus.subscribe((event) => heard.push(event));
      expect([first.ctx.leader.isLeader(), second.ctx.leader.isLeader()]).toEqual([true, false]);

      const early = await expiredPost(db);
      await expect.poll(() => deletions(heard, early).length, { timeout: 15_000 }).toBe(1);
      // Both timers ticked about together, twice by now: only the leader's swept.
      const sweeps = (app: FastifyInstance) => app.ctx.leader.status().jobs['posts.sweep-expired']?.runs;
      await expect.poll(() => sweeps(first), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
      expect(sweeps(second)).toBe(0);

      const late = await expiredPost(db);
      await first.close();
      // Taking over runs every job at once: no waiting for the sweeper's next round.
      await expect.poll(() => deletions(heard, late).length).toBe(1);
      expect(second.ctx.leader.status()).toMatchObject({
        leading: true,
        jobs: { 'posts.sweep-expired': { failures: 0 } },
      });
      expect(deletions(heard, early)).toHaveLength(1);
      const left = await db.db.execute(
        sql`select count(*)::int as n from publications where id in (${early}, ${late})`,
      );
      expect(left.rows[0]?.n).toBe(0);
    });
  });
});
