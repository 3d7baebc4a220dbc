/**
 * PostgreSQL LISTEN/NOTIFY bus: every instance LISTENs on one channel through a dedicated
 * connection, so an event published by one instance reaches sockets held by all the others.
 * NOTIFY payloads are limited to 8000 bytes; events are kept far below that.
 */
import pg from 'pg';
import type { EventBus, RealtimeEvent } from './types.ts';

const CHANNEL = 'moodmap_events';
const MAX_PAYLOAD = 7900;

export async function createPostgresBus(connectionString: string, pool: pg.Pool): Promise<EventBus> {
  const handlers = new Set<(event: RealtimeEvent) => void>();
  let listener: pg.Client | null = null;
  let closed = false;

  async function connect(): Promise<void> {
    const client = new pg.Client({ connectionString });
    client.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      let event: RealtimeEvent;
      try {
        event = JSON.parse(msg.payload) as RealtimeEvent;
      } catch {
        return;
      }
      handlers.forEach((h) => h(event));
    });
    // A lost listener connection is re-established; events sent meanwhile are caught up by
    // clients through their `since` cursors.
    client.on('error', () => reconnect());
    client.on('end', () => reconnect());
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    listener = client;
  }

  let reconnecting = false;
  function reconnect(): void {
    if (closed || reconnecting) return;
    reconnecting = true;
    listener = null;
    const retry = (delay: number) => setTimeout(() => {
      connect().then(() => { reconnecting = false; }, () => retry(Math.min(delay * 2, 10_000)));
    }, delay);
    retry(250);
  }

  await connect();
  return {
    async publish(event) {
      const payload = JSON.stringify(event);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD) throw new Error(`realtime event too large: ${event.type}`);
      await pool.query('select pg_notify($1, $2)', [CHANNEL, payload]);
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      closed = true;
      handlers.clear();
      await listener?.end().catch(() => {});
    },
  };
}
