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
import { answeredWithin, APPLICATION_NAME, acquireLock, prepareLink, watchLink, type Backend } from './lock-link.ts';

const CONNECT_TIMEOUT_MS = 2000;
const CHECK_INTERVAL_MS = 2000;
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 500;

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

/**
 * Runs `session` again each time it ends, until `stop` aborts: at once after it led or waited,
 * then waits that double from FIRST_RETRY_MS up to MAX_RETRY_MS while it keeps failing.
 */
async function reconnecting(
  session: () => Promise<void>,
  stop: AbortSignal,
  ended: () => void,
  failed: (error: unknown) => void,
): Promise<void> {
  let retryMs = FIRST_RETRY_MS;
  while (!stop.aborted) {
    await session().then(() => {
      retryMs = FIRST_RETRY_MS;
    }, failed);
    ended();
    if (stop.aborted) break;
    await delay(retryMs, undefined, { signal: stop }).catch(() => {});
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  }
}

/**
 * Starts competing for the lock; resolves once the first attempt is settled (this instance leads,
 * or waits behind another), so the first instance of a deployment leads by the time it serves.
 */
export async function holdAdvisoryLock(
  connectionString: string,
  options: AdvisoryLockOptions = {},
): Promise<Leadership> {
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

  /** One connection's life: connect, wait for the lock, lead until the link or the process ends. */
  async function session(): Promise<void> {
    const current = new pg.Client({
      connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      application_name: APPLICATION_NAME,
    });
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
      previous = await prepareLink(current, previous, checkMs);
      failing = false;
      if (!(await acquireLock(current, checkMs, stop.signal, firstAttempt))) return;
      setLeading(true);
      const watching = watchLink(current, checkMs, stop.signal, () => dropped || stop.signal.aborted);
      watching.catch(() => {});
      await Promise.race([lost, watching]);
    } finally {
      setLeading(false);
      if (client === current) client = null;
      void current.end().catch(() => {});
    }
  }

  const running = reconnecting(session, stop.signal, firstAttempt, (error) => {
    if (!failing && !stop.signal.aborted) options.onError?.(error);
    failing = true;
  });
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
