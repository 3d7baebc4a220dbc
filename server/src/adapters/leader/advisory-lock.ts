/**
 * Leadership on PostgreSQL: a session advisory lock held on a connection of its own. The lock
 * lives exactly as long as that backend, so a leader that stops, crashes or loses its
 * connection (pg_terminate_backend, a restart, a failover) frees it at once. The others wait for
 * it inside PostgreSQL (`pg_advisory_lock`, in turns of LOCK_WAIT_MS so a dead link is noticed),
 * queued in order: when it is freed, the longest waiter is granted it at once, before the old
 * leader can have reconnected.
 *
 * A leader that can no longer reach PostgreSQL must stop before anyone else can start. Its
 * connection is checked every CHECK_INTERVAL_MS (a check unanswered within that time ends the
 * leadership), so it steps down within two intervals of its link dying. PostgreSQL frees the
 * lock of a silent peer only later: the session's TCP keepalives and user timeout give up after
 * about ten seconds, longer than the two intervals. A reconnecting instance also ends its own
 * previous backend if that is still alive: a link that died silently on this side only would
 * otherwise keep the lock, and leadership, away from everyone.
 *
 * At the edges (a backend terminated while its link is also cut) two instances may both run a
 * job for a few seconds: the jobs run this way are idempotent deletes and updates.
 */
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';

/** 'moodmap' in ASCII: one lock per database, so deployments on separate databases lead apart. */
const LOCK_KEY = '30803296678404464';
const APPLICATION_NAME = 'moodmap_leader';
const CONNECT_TIMEOUT_MS = 2000;
const CHECK_INTERVAL_MS = 2000;
const LOCK_WAIT_MS = 5000;
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 500;
/** The server's side of the link gives up on a silent peer after ~10 s (idle 4 s + 3 probes 2 s apart). */
const SESSION_SETTINGS = 'set tcp_keepalives_idle = 4; set tcp_keepalives_interval = 2; set tcp_keepalives_count = 3; set tcp_user_timeout = 10000';
const LOCK_NOT_AVAILABLE = '55P03';

export interface Leadership {
  leading(): boolean;
  /** `listener(true)` when this instance becomes the leader, `listener(false)` when it stops. */
  onChange(listener: (leading: boolean) => void): void;
  close(): Promise<void>;
}

export interface AdvisoryLockOptions {
  /** Tests shorten the check; production keeps the default. */
  checkIntervalMs?: number;
  /** Told of the first failure of a streak (the retries go on, quietly, every 500 ms at most). */
  onError?: (error: unknown) => void;
}

interface Backend {
  pid: number;
  started: string;
}

/** Rejects when `promise` has not settled within `ms`: the link is taken for dead. */
function answeredWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from PostgreSQL within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const isLockTimeout = (error: unknown) => error instanceof pg.DatabaseError && error.code === LOCK_NOT_AVAILABLE;

/**
 * Starts competing for the lock; resolves once the first attempt is settled (this instance leads,
 * or waits behind another), so the first instance of a deployment leads by the time it serves.
 */
export async function holdAdvisoryLock(connectionString: string, options: AdvisoryLockOptions = {}): Promise<Leadership> {
  const checkMs = options.checkIntervalMs ?? CHECK_INTERVAL_MS;
  const listeners = new Set<(leading: boolean) => void>();
  const stop = new AbortController();
  let leading = false;
  let client: pg.Client | null = null;
  let previous: Backend | null = null;
  /** A failure was reported and no connection has worked since. */
  let failing = false;
  let firstAttempt: () => void = () => {};
  const settled = new Promise<void>((resolve) => {
    firstAttempt = resolve;
  });

  function setLeading(value: boolean): void {
    if (leading === value) return;
    leading = value;
    for (const listener of listeners) listener(value);
  }

  async function prepare(session: pg.Client): Promise<void> {
    await answeredWithin(session.query(SESSION_SETTINGS), checkMs);
    if (previous) {
      // Best effort: a backend already gone, or one this role may not end, leaves nothing to do.
      await answeredWithin(session.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where pid = $1 and backend_start::text = $2 and application_name = $3',
        [previous.pid, previous.started, APPLICATION_NAME],
      ), checkMs).catch(() => {});
    }
    const { rows } = await answeredWithin(session.query<{ pid: number; started: string }>(
      'select pid, backend_start::text as started from pg_stat_activity where pid = pg_backend_pid()',
    ), checkMs);
    previous = rows[0] ?? null;
  }

  /** True once the lock is held; false when closing. */
  async function acquire(session: pg.Client): Promise<boolean> {
    const { rows } = await answeredWithin(session.query<{ held: boolean }>('select pg_try_advisory_lock($1::bigint) as held', [LOCK_KEY]), checkMs);
    firstAttempt();
    if (rows[0]?.held) return true;
    await answeredWithin(session.query(`set lock_timeout = ${LOCK_WAIT_MS}`), checkMs);
    while (!stop.signal.aborted) {
      try {
        await answeredWithin(session.query('select pg_advisory_lock($1::bigint)', [LOCK_KEY]), LOCK_WAIT_MS + checkMs);
        return true;
      } catch (error) {
        if (!isLockTimeout(error)) throw error;
      }
    }
    return false;
  }

  /** Resolves when the leadership must end: closing, or a check unanswered. */
  async function watch(session: pg.Client, ended: () => boolean): Promise<void> {
    while (!ended()) {
      await delay(checkMs, undefined, { signal: stop.signal }).catch(() => {});
      if (ended()) return;
      await answeredWithin(session.query('select 1'), checkMs);
    }
  }

  /** One connection's life: connect, wait for the lock, lead until the link or the process ends. */
  async function session(): Promise<void> {
    const current = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, application_name: APPLICATION_NAME });
    client = current;
    let dropped = false;
    const lost = new Promise<void>((resolve) => {
      // Kept for the client's whole life: an 'error' without a listener would end the process.
      current.on('error', () => resolve());
      current.on('end', () => resolve());
    }).then(() => {
      dropped = true;
      // A late 'end' of a connection already replaced must not touch its successor's leadership.
      if (client === current) setLeading(false);
    });
    try {
      await current.connect();
      await prepare(current);
      failing = false;
      if (!(await acquire(current))) return;
      setLeading(true);
      const watching = watch(current, () => dropped || stop.signal.aborted);
      watching.catch(() => {});
      await Promise.race([lost, watching]);
    } finally {
      setLeading(false);
      if (client === current) client = null;
      void current.end().catch(() => {});
    }
  }

  const running = (async () => {
    let retryMs = FIRST_RETRY_MS;
    while (!stop.signal.aborted) {
      await session().then(() => {
        retryMs = FIRST_RETRY_MS;
      }, (error: unknown) => {
        if (!failing && !stop.signal.aborted) options.onError?.(error);
        failing = true;
      });
      firstAttempt();
      if (stop.signal.aborted) break;
      await delay(retryMs, undefined, { signal: stop.signal }).catch(() => {});
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    }
  })();
  await settled;

  return {
    leading: () => leading,
    onChange(listener) {
      listeners.add(listener);
    },
    async close() {
      stop.abort();
      // Ends the wait for the lock, or frees it; a dead link is not waited on for long (a wait
      // for the lock still under way gives up within LOCK_WAIT_MS).
      if (client) await answeredWithin(client.end(), checkMs).catch(() => {});
      await running;
      listeners.clear();
    },
  };
}
