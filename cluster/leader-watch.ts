/**
 * Watches, from the database host's own view, which instance holds the periodic jobs' advisory
 * lock: every 250 ms, the `moodmap_leader` backends whose advisory lock is granted, named by the
 * address they connect from. Also the workload's other direct uses of the database: ageing a
 * post past its lifetime, as the server's own tests do, since no clock can be moved in a running
 * deployment, and reading when the leader's sweep deleted it (its tombstone's `deleted_at`, by
 * the database's clock: the hosts are namespaces of one machine and share it).
 */
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { z } from 'zod';
import { DATABASE } from './hosts.ts';
import { APP_HOSTS, type AppHost, appHostOf, HOSTS } from './topology.ts';

const EVERY_MS = 250;
const holdersSchema = z.array(z.object({ address: z.string() }));
const waitsSchema = z.array(z.object({ what: z.string(), n: z.number() }));
const sweptSchema = z.array(z.object({ at: z.number() }));

export interface Sample {
  at: number;
  holders: string[];
}

const hostOf = (address: string) => APP_HOSTS.find((h) => HOSTS[h] === address) ?? address;

export class LeaderWatch {
  readonly samples: Sample[] = [];
  private readonly client = new pg.Client({
    connectionString: `postgres://postgres@${HOSTS.db}:5432/${DATABASE}`,
    application_name: 'cluster_observer',
  });
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  /** Samples the database did not answer (it is never cut off: this stays 0 in a sound run). */
  failedSamples = 0;

  async start(): Promise<void> {
    await this.client.connect();
    this.timer = setInterval(() => void this.sample(), EVERY_MS);
  }

  private async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const { rows } = await this.client.query(
        `select host(a.client_addr) as address from pg_locks l join pg_stat_activity a on a.pid = l.pid
          where l.locktype = 'advisory' and l.granted and a.application_name = 'moodmap_leader'`,
      );
      this.samples.push({ at: Date.now(), holders: holdersSchema.parse(rows).map((r) => hostOf(r.address)) });
      if (this.samples.length % 4 === 0) await this.sampleWaits();
    } catch {
      this.failedSamples++;
    } finally {
      this.busy = false;
    }
  }

  /**
   * What the instances' statements wait on, once a second: the most backends seen waiting at
   * once on each kind of wait and statement, to tell a slow answer's cause (a lock, the pool…).
   */
  readonly waits = new Map<string, number>();
  private async sampleWaits(): Promise<void> {
    const { rows } = await this.client.query(
      `select wait_event_type || ':' || wait_event || ' ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 70) as what, count(*)::int as n
         from pg_stat_activity
        where state = 'active' and wait_event_type in ('Lock', 'LWLock', 'IO') and application_name not in ('cluster_observer', 'moodmap_leader')
        group by 1`,
    );
    for (const { what, n } of waitsSchema.parse(rows)) this.waits.set(what, Math.max(n, this.waits.get(what) ?? 0));
  }

  /** The waits seen with the most backends at once, most first. */
  topWaits(count: number): string[] {
    return [...this.waits]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([what, n]) => `${n}× ${what}`);
  }

  /** The lock's holder at the latest sample, if exactly one. */
  leader(): AppHost | null {
    const last = this.samples.at(-1);
    return last?.holders.length === 1 ? appHostOf(last.holders[0]) : null;
  }

  /** Time from `since` to the first sample where a host other than `previous` holds the lock. */
  takeoverMs(since: number, previous: string): number | null {
    const found = this.samples.find((s) => s.at >= since && s.holders.length === 1 && s.holders[0] !== previous);
    return found ? found.at - since : null;
  }

  /** The most holders seen in one sample taken at or after `since`. */
  mostHoldersAtOnce(since = 0): number {
    return Math.max(0, ...this.samples.filter((s) => s.at >= since).map((s) => s.holders.length));
  }

  /** The hosts that held the lock in some sample taken at or after `since`. */
  holdersSince(since: number): string[] {
    return [...new Set(this.samples.filter((s) => s.at >= since).flatMap((s) => s.holders))];
  }

  samplesSince(since: number): number {
    return this.samples.filter((s) => s.at >= since).length;
  }

  /** Ages a post past its 24 h lifetime: the leading instance's sweeper deletes it within seconds. */
  async expire(postId: string): Promise<void> {
    await this.client.query(`update publications set created_at = now() - interval '25 hours' where id = $1`, [postId]);
  }

  /** When the sweep deleted `postId` (epoch ms), once it has; null if not by `deadline`. */
  async sweptAt(postId: string, deadline: number): Promise<number | null> {
    while (Date.now() < deadline) {
      const { rows } = await this.client.query(
        `select (extract(epoch from deleted_at) * 1000)::float8 as at from post_tombstones where post_id = $1`,
        [postId],
      );
      const found = sweptSchema.parse(rows)[0];
      if (found) return Math.round(found.at);
      await delay(100);
    }
    return null;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    while (this.busy) await delay(20);
    await this.client.end();
  }
}
