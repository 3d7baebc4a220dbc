/**
 * The statements of the leadership's connection (advisory-lock.ts): its settings, the lock
 * itself, and the check that the link still answers. Each is given at most a check interval
 * to answer: a silent link is taken for dead.
 */
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';

/** 'moodmap' in ASCII: one lock per database, so deployments on separate databases lead apart. */
const LOCK_KEY = '30803296678404464';
export const APPLICATION_NAME = 'moodmap_leader';
export const LOCK_WAIT_MS = 5000;
/** The server's side of the link gives up on a silent peer after ~10 s (idle 4 s + 3 probes 2 s apart). */
const SESSION_SETTINGS =
  'set tcp_keepalives_idle = 4; set tcp_keepalives_interval = 2; set tcp_keepalives_count = 3; set tcp_user_timeout = 10000';
const LOCK_NOT_AVAILABLE = '55P03';

export interface Backend {
  pid: number;
  started: string;
}

/** Rejects when `promise` has not settled within `ms`: the link is taken for dead. */
export function answeredWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from PostgreSQL within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const isLockTimeout = (error: unknown) => error instanceof pg.DatabaseError && error.code === LOCK_NOT_AVAILABLE;

/** The session's settings; ends this instance's `previous` backend if it is still alive. Returns this one's. */
export async function prepareLink(
  session: pg.Client,
  previous: Backend | null,
  checkMs: number,
): Promise<Backend | null> {
  await answeredWithin(session.query(SESSION_SETTINGS), checkMs);
  if (previous) {
    // Best effort: a backend already gone, or one this role may not end, leaves nothing to do.
    await answeredWithin(
      session.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where pid = $1 and backend_start::text = $2 and application_name = $3',
        [previous.pid, previous.started, APPLICATION_NAME],
      ),
      checkMs,
    ).catch(() => {});
  }
  const { rows } = await answeredWithin(
    session.query<{ pid: number; started: string }>(
      'select pid, backend_start::text as started from pg_stat_activity where pid = pg_backend_pid()',
    ),
    checkMs,
  );
  return rows[0] ?? null;
}

/** True once the lock is held; false when `stop` aborts. `tried` is called once the first try is answered. */
export async function acquireLock(
  session: pg.Client,
  checkMs: number,
  stop: AbortSignal,
  tried: () => void,
): Promise<boolean> {
  const { rows } = await answeredWithin(
    session.query<{ held: boolean }>('select pg_try_advisory_lock($1::bigint) as held', [LOCK_KEY]),
    checkMs,
  );
  tried();
  if (rows[0]?.held) return true;
  await answeredWithin(session.query(`set lock_timeout = ${LOCK_WAIT_MS}`), checkMs);
  while (!stop.aborted) {
    try {
      await answeredWithin(session.query('select pg_advisory_lock($1::bigint)', [LOCK_KEY]), LOCK_WAIT_MS + checkMs);
      return true;
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
    }
  }
  return false;
}

/** Resolves when the leadership must end (`ended()`); rejects when a check goes unanswered. */
export async function watchLink(
  session: pg.Client,
  checkMs: number,
  stop: AbortSignal,
  ended: () => boolean,
): Promise<void> {
  while (!ended()) {
    await delay(checkMs, undefined, { signal: stop }).catch(() => {});
    if (ended()) return;
    await answeredWithin(session.query('select 1'), checkMs);
  }
}
