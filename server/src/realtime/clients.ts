/** Every open socket of this instance, with what the hub knows of each. */
import type { WebSocket } from 'ws';
import { createHeldWrites } from './held-writes.ts';
import { createSocketBlocks, type HubBlocks } from './socket-blocks.ts';
import { createSocketIdentities } from './socket-identities.ts';
import { createViewIndex } from './view-index.ts';

export function createClients(now: () => number, blocks?: HubBlocks) {
  const sockets = new Set<WebSocket>();
  const hidden = createSocketBlocks(blocks);
  const identities = createSocketIdentities(now, hidden);
  /** What each socket's map shows: post events go to the sockets whose view holds the post. */
  const watching = createViewIndex<WebSocket>();
  return {
    sockets,
    hidden,
    identities,
    watching,
    /** Whether each socket answered the last heartbeat's ping. */
    alive: new WeakMap<WebSocket, boolean>(),
    /** Each socket's id, unique across instances: an event may name the socket it skips. */
    ids: new WeakMap<WebSocket, string>(),
    writes: createHeldWrites(),
    forget(socket: WebSocket): void {
      sockets.delete(socket);
      watching.delete(socket);
      identities.set(socket, null);
    },
  };
}

export type Clients = ReturnType<typeof createClients>;
