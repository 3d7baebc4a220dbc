/**
 * PostgreSQL LISTEN/NOTIFY bus: every instance LISTENs on one channel through a dedicated
 * connection, so an event published by one instance reaches sockets held by all the others.
 * NOTIFY payloads are limited to 8000 bytes; events are kept far below that. A payload is one
 * event (a JSON object) or, from `publishMany`, several in order (a JSON array): a batch of
 * message sends costs one NOTIFY, not one per message.
 *
 * The listening connection is replaced as soon as it is lost (a terminated backend, a restart,
 * a failover): retries start after 100 ms and never wait more than 500 ms apart, so events flow
 * again within about half a second of the database coming back. Events sent while no one
 * listened are caught up by clients through their `since` cursors; this instance's own
 * handlers are told (BUS_RESUMED) so caches kept current by events start afresh.
 */
import pg from 'pg';
import { BUS_RESUMED, type EventBus, type RealtimeEvent } from './types.ts';
import { ownObservers } from './own-observers.ts';

const CHANNEL = 'moodmap_events';
const MAX_PAYLOAD = 7900;
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 500;
/** A connection attempt that hangs (a host that vanished) is given up after this. */
const CONNECT_TIMEOUT_MS = 2000;
/**
 * A link can die silently (no FIN, no error: a cut network, a frozen peer). The listener runs a
 * `select 1` this often; one that got no answer by the next round means the link is dead.
 */
const CHECK_INTERVAL_MS = 2000;

export interface PostgresBusOptions {
  /** Tests shorten the liveness check; production keeps the default. */
  checkIntervalMs?: number;
}

export async function createPostgresBus(connectionString: string, pool: pg.Pool, options: PostgresBusOptions = {}): Promise<EventBus> {
  const handlers = new Set<(event: RealtimeEvent) => void>();
  const own = ownObservers();
  /** The connection that currently LISTENs; null while a replacement is being opened. */
  let listener: pg.Client | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let unansweredCheck: pg.Client | null = null;

  function deliver(msg: pg.Notification): void {
    if (msg.channel !== CHANNEL || !msg.payload) return;
    let parsed: RealtimeEvent | RealtimeEvent[];
    try {
      parsed = JSON.parse(msg.payload) as RealtimeEvent | RealtimeEvent[];
    } catch {
      return;
    }
    for (const event of Array.isArray(parsed) ? parsed : [parsed]) handlers.forEach((h) => h(event));
  }

  async function listen(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, application_name: 'moodmap_bus' });
    client.on('notification', deliver);
    // Both fire when the link drops ('error' first, unless we ended it); only the current
    // listener's first signal starts a reconnect. The listener also keeps the process alive
    // through errors of a client that never became the listener.
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
  }

  function lost(client: pg.Client): void {
    if (client !== listener) return;
    listener = null;
    client.end().catch(() => {});
    reconnect(FIRST_RETRY_MS);
  }

  function reconnect(delay: number): void {
    if (closed) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      listen().then(
        (client) => {
          if (closed) return void client.end().catch(() => {});
          listener = client;
          const resumed: RealtimeEvent = { type: BUS_RESUMED, data: null };
          handlers.forEach((h) => h(resumed));
        },
        () => reconnect(Math.min(delay * 2, MAX_RETRY_MS)),
      );
    }, delay);
  }

  const checker = setInterval(() => {
    const client = listener;
    if (!client) return;
    if (unansweredCheck === client) return lost(client);
    unansweredCheck = client;
    client.query('select 1').then(
      () => {
        if (unansweredCheck === client) unansweredCheck = null;
      },
      () => lost(client),
    );
  }, options.checkIntervalMs ?? CHECK_INTERVAL_MS);
  checker.unref();

  listener = await listen().catch((error) => {
    clearInterval(checker);
    throw error;
  });
  return {
    async publish(event) {
      own.notify(event);
      const payload = JSON.stringify(event);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD) throw new Error(`realtime event too large: ${event.type}`);
      await pool.query('select pg_notify($1, $2)', [CHANNEL, payload]);
    },
    async publishMany(events) {
      for (const event of events) own.notify(event);
      // Events packed in order into arrays under the payload limit; each NOTIFY waits for the
      // one before (on a pool, two queries issued together may run in either order). An event
      // too large alone is left out, and reported once the others are out.
      const payloads: string[] = [];
      let chunk: string[] = [];
      let bytes = 2;
      let tooLarge: string | null = null;
      for (const event of events) {
        const json = JSON.stringify(event);
        const size = Buffer.byteLength(json) + 1;
        if (size + 2 > MAX_PAYLOAD) {
          tooLarge ??= event.type;
          continue;
        }
        if (bytes + size > MAX_PAYLOAD) {
          payloads.push(`[${chunk.join(',')}]`);
          chunk = [];
          bytes = 2;
        }
        chunk.push(json);
        bytes += size;
      }
      if (chunk.length) payloads.push(`[${chunk.join(',')}]`);
      // Named, so each pool connection parses it once (issue 15: a NOTIFY per batch of sends).
      for (const payload of payloads) await pool.query({ name: 'bus_notify', text: 'select pg_notify($1, $2)', values: [CHANNEL, payload] });
      if (tooLarge) throw new Error(`realtime event too large: ${tooLarge}`);
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    observeOwn: own.add,
    async close() {
      closed = true;
      handlers.clear();
      own.clear();
      clearInterval(checker);
      if (retryTimer) clearTimeout(retryTimer);
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
    },
  };
}
