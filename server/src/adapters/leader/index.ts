/**
 * Periodic work that must happen once per deployment, not once per instance (the sweepers, the
 * cost caps, the expiry of data archives), runs on the one instance that leads: on PostgreSQL
 * the holder of an advisory lock (advisory-lock.ts), on PGlite the only process there can be.
 * Every instance keeps the jobs' timers; a tick does something only on the leader, and never
 * while the job's previous run is still going. An instance that becomes the leader runs every
 * job at once: a takeover catches up with what the previous leader left, and a job with a long
 * interval still runs when leaders change more often than that.
 */
import type { Database } from '../../db/client.ts';
import { holdAdvisoryLock, type AdvisoryLockOptions, type Leadership } from './advisory-lock.ts';

export interface JobStatus {
  /** Runs finished without error on this instance. */
  runs: number;
  failures: number;
}

export interface Leader {
  isLeader(): boolean;
  /** Runs `job` every `intervalMs` while this instance leads; the returned stop waits for a run under way. */
  every(name: string, intervalMs: number, job: () => Promise<unknown>): () => Promise<void>;
  /** Whether this instance leads, and what its jobs did here. */
  status(): { leading: boolean; jobs: Record<string, JobStatus> };
  close(): Promise<void>;
}

export interface LeaderLog {
  info(message: string): void;
  warn(details: { err: unknown; job?: string }, message: string): void;
}

interface Job extends JobStatus {
  name: string;
  run: () => Promise<unknown>;
  timer: NodeJS.Timeout;
  running: Promise<void> | null;
}

const alwaysLeading: Leadership = { leading: () => true, onChange: () => {}, close: async () => {} };

export async function createLeader(
  database: Database,
  log: LeaderLog,
  options: AdvisoryLockOptions = {},
): Promise<Leader> {
  const leadership =
    database.engine === 'postgres' && database.connectionString
      ? await holdAdvisoryLock(database.connectionString, {
          onError: (err) => log.warn({ err }, 'verrou des tâches périodiques injoignable'),
          ...options,
        })
      : alwaysLeading;
  const jobs = new Map<string, Job>();

  function start(job: Job): void {
    if (job.running) return;
    job.running = job
      .run()
      .then(
        () => {
          job.runs++;
        },
        (err: unknown) => {
          job.failures++;
          log.warn({ err, job: job.name }, 'tâche périodique en échec');
        },
      )
      .finally(() => {
        job.running = null;
      });
  }

  const tell = (leading: boolean) =>
    log.info(
      leading ? 'cette instance mène les tâches périodiques' : 'cette instance ne mène plus les tâches périodiques',
    );
  leadership.onChange((leading) => {
    tell(leading);
    if (leading) for (const job of jobs.values()) start(job);
  });
  // The first instance of a deployment leads from the start (nothing to tell on PGlite).
  if (leadership !== alwaysLeading && leadership.leading()) tell(true);

  async function stopJob(job: Job): Promise<void> {
    clearInterval(job.timer);
    if (jobs.get(job.name) === job) jobs.delete(job.name);
    await job.running;
  }

  return {
    isLeader: () => leadership.leading(),
    every(name, intervalMs, run) {
      if (jobs.has(name)) throw new Error(`periodic job already registered: ${name}`);
      const timer = setInterval(() => {
        if (leadership.leading()) start(job);
      }, intervalMs);
      timer.unref();
      const job: Job = { name, run, timer, running: null, runs: 0, failures: 0 };
      jobs.set(name, job);
      return () => stopJob(job);
    },
    status: () => ({
      leading: leadership.leading(),
      jobs: Object.fromEntries([...jobs.values()].map((job) => [job.name, { runs: job.runs, failures: job.failures }])),
    }),
    async close() {
      await Promise.all([...jobs.values()].map(stopJob));
      await leadership.close();
    },
  };
}

export type { Leadership } from './advisory-lock.ts';
