/**
 * PostgreSQL LISTEN/NOTIFY bus: every instance LISTENs on one channel through a dedicated
 * connection, so an event published by one instance reaches sockets held by all the others.
 * A payload is one event or, from `publishMany`, several in order (payloads.ts): a batch of
 * message sends costs one NOTIFY, not one per message. Every notification of the database goes
 * through one queue on the server, and each is delivered only after its transaction commits.
 *
 * The listening connection is kept open by kept-link.ts: replaced within about half a second of
 * the database coming back, checked every 2 s for silent death. Events sent while no one
 * listened are caught up by clients through their `since` cursors; this instance's own
 * handlers are told (BUS_RESUMED) so caches kept current by events start afresh. A NOTIFY
 * unanswered in time is reported lost, and never delivered later (payloads.ts, stamped).
 */
import pg from 'pg';
import { keepLinkOpen, type Link } from './kept-link.ts';
import { assembleBus, busHandlers } from './assemble.ts';
import { PUBLISH_TIMEOUT_MS } from './payloads.ts';
import type { EventBus } from './types.ts';

// pg reads a query's own `query_timeout` (lib/client.js); its type declarations know it only for a whole client.
declare module 'pg' {
  interface QueryConfig<I> {
    query_timeout?: number;
  }
}

const CHANNEL = 'moodmap_events';
/** A connection attempt that hangs (a host that vanished) is given up after this. */
const CONNECT_TIMEOUT_MS = 2000;
const CHECK_INTERVAL_MS = 2000;

export interface PostgresBusOptions {
  /** Tests shorten the liveness check; production keeps the default. */
  checkIntervalMs?: number;
}

async function listen(connectionString: string, deliver: (payload: string) => void, lost: () => void): Promise<Link> {
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    application_name: 'moodmap_bus',
  });
  client.on('notification', (msg) => {
    if (msg.channel === CHANNEL && msg.payload) deliver(msg.payload);
  });
  // Both fire when the link drops ('error' first, unless we ended it). The listener also keeps
  // the process alive through errors of a client that never became the listening one.
  client.on('error', lost);
  client.on('end', lost);
  try {
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  return {
    check: () => client.query('select 1'),
    close: () => client.end().catch(() => {}),
  };
}

export async function createPostgresBus(
  connectionString: string,
  pool: pg.Pool,
  options: PostgresBusOptions = {},
): Promise<EventBus> {
  const { handlers, deliver, resumed } = busHandlers();
  const link = await keepLinkOpen({
    open: (lost) => listen(connectionString, deliver, lost),
    onResumed: resumed,
    checkIntervalMs: options.checkIntervalMs ?? CHECK_INTERVAL_MS,
  });
  return assembleBus(handlers, {
    async send(payloads) {
      // Each NOTIFY waits for the one before: on a pool, two queries issued together may run in
      // either order. Named, so each pool connection parses it once. One unanswered in time fails
      // (the pool then drops its connection); its stamp has it dropped if it arrives late.
      for (const payload of payloads)
        await pool.query({
          name: 'bus_notify',
          text: 'select pg_notify($1, $2)',
          values: [CHANNEL, payload],
          query_timeout: PUBLISH_TIMEOUT_MS,
        });
    },
    close: () => link.close(),
  });
}
