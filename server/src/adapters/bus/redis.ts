/**
 * Redis pub/sub bus (BUS_URL=redis://…), with the PostgreSQL bus's promises: the same payloads
 * and size limit (payloads.ts), the events of one publisher in order, the listening connection
 * kept open and checked the same way (kept-link.ts), nothing replayed after a gap and BUS_RESUMED
 * told to this instance's handlers, and nothing delivered that its publisher reported lost
 * (payloads.ts, stamped). It takes the events' traffic off the database: no NOTIFY
 * queue shared with every transaction, no commit on the publishing path.
 *
 * Two connections: one SUBSCRIBEs (a subscribed Redis connection can do nothing else), one
 * PUBLISHes. The publisher fails at once while Redis is away rather than queueing: a request
 * never waits on the bus, and a caller hears of a lost event as it would on PostgreSQL.
 */
import { Redis } from 'ioredis';
import { keepLinkOpen, type Link } from './kept-link.ts';
import { assembleBus, busHandlers } from './assemble.ts';
import { PUBLISH_TIMEOUT_MS } from './payloads.ts';
import type { EventBus } from './types.ts';

const CONNECT_TIMEOUT_MS = 2000;
const CHECK_INTERVAL_MS = 2000;
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 500;

export interface RedisBusOptions {
  /** Redis pub/sub channels are shared by every database of a server: one per deployment. */
  channel: string;
  /** Tests shorten the liveness check; production keeps the default. */
  checkIntervalMs?: number;
}

/** CLIENT LIST shows which deployment's bus each connection is (names cannot hold spaces). */
const clientName = (role: string, channel: string) => `moodmap_${role}@${channel}`.replace(/[^\x21-\x7e]/g, '_');

async function subscribe(
  url: string,
  channel: string,
  deliver: (payload: string) => void,
  lost: () => void,
): Promise<Link> {
  // No reconnection of its own: kept-link.ts replaces a lost link and tells the handlers.
  const redis = new Redis(url, {
    lazyConnect: true,
    retryStrategy: () => null,
    autoResubscribe: false,
    enableOfflineQueue: false,
    connectTimeout: CONNECT_TIMEOUT_MS,
    connectionName: clientName('bus', channel),
  });
  redis.on('message', (from: string, message: string) => {
    if (from === channel) deliver(message);
  });
  // Errors are followed by 'end' (no reconnection); the listener keeps the process alive.
  redis.on('error', () => {});
  redis.on('end', lost);
  try {
    await redis.connect();
    await redis.subscribe(channel);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return {
    check: () => redis.ping(),
    // Ends the socket, destroyed after 2 s if the peer never answers (ioredis).
    close: async () => redis.disconnect(),
  };
}

export async function createRedisBus(url: string, options: RedisBusOptions): Promise<EventBus> {
  const { channel } = options;
  const { handlers, deliver, resumed } = busHandlers();
  const publisher = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: PUBLISH_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    connectionName: clientName('pub', channel),
    retryStrategy: (attempt) => Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), MAX_RETRY_MS),
  });
  publisher.on('error', () => {});
  await publisher.connect();
  const link = await keepLinkOpen({
    open: (lost) => subscribe(url, channel, deliver, lost),
    onResumed: resumed,
    checkIntervalMs: options.checkIntervalMs ?? CHECK_INTERVAL_MS,
  }).catch((error: unknown) => {
    publisher.disconnect();
    throw error;
  });

  async function send(payload: string): Promise<void> {
    try {
      await publisher.publish(channel, payload);
    } catch (error) {
      // Connected yet unanswered: a link that died silently; a fresh one finds out.
      if (publisher.status === 'ready') publisher.disconnect(true);
      throw error;
    }
  }

  return assembleBus(handlers, {
    // One connection keeps them in order; no need to wait for each answer before the next.
    send: async (payloads) => {
      await Promise.all(payloads.map(send));
    },
    async close() {
      await link.close();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  });
}
