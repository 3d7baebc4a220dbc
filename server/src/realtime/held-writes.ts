/**
 * The TCP connection under each socket. Frames sent while the bus hands over one
 * notification's events are held (cork) and leave together once it is done (uncork): a
 * message's two frames, and a batch's frames for one socket, cost one write system call, not
 * one each. Frames and their order are unchanged.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

export function createHeldWrites() {
  const connectionOf = new WeakMap<WebSocket, Duplex>();
  const held: Duplex[] = [];
  const release = () => {
    for (const connection of held.splice(0)) connection.uncork();
  };
  return {
    attach(socket: WebSocket, connection: Duplex): void {
      connectionOf.set(socket, connection);
    },
    /** Holds the socket's writes until the current turn of the event loop is over. */
    hold(socket: WebSocket): void {
      const connection = connectionOf.get(socket);
      if (!connection || connection.writableCorked) return;
      connection.cork();
      if (held.push(connection) === 1) process.nextTick(release);
    },
  };
}
