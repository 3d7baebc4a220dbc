/**
 * What the hub does with each bus event: the internal ones (a session revoked, blocks changed,
 * the bus back after a gap) change what it knows of its sockets; any other goes to the sockets
 * it is for (hub.ts tells who gets what).
 */
import type { WebSocket } from 'ws';
import { BUS_RESUMED, type RealtimeEvent } from '../adapters/bus/types.ts';
import { sessionsRevoked } from '../modules/auth/session-events.ts';
import { blocksChanged, type BlocksChanged } from '../modules/blocks/relations.ts';
import type { Clients } from './clients.ts';

export function dispatch(clients: Clients, event: RealtimeEvent): void {
  const revocation = sessionsRevoked(event);
  if (revocation) {
    clients.identities.revoked(revocation.userId, revocation.sessionIds);
    return;
  }
  if (event.type === BUS_RESUMED) return; // the bus's own news, not for browsers
  const reblocked = blocksChanged(event);
  if (reblocked) {
    reloadBlocks(clients, reblocked);
    return;
  }
  deliver(clients, event);
}

/**
 * Internal too. A block hides each from the other at once; then the two people's sockets
 * reload whom they must not hear about (an unblock shows the other again after that read).
 */
function reloadBlocks(clients: Clients, { users, blocked }: BlocksChanged): void {
  const [a, b] = users;
  for (const userId of users) {
    const other = userId === a ? b : a;
    for (const socket of clients.identities.of(userId)) {
      if (blocked && other) clients.hidden.add(socket, other);
      void clients.identities.loadHidden(socket, userId);
    }
  }
}

function deliver(clients: Clients, event: RealtimeEvent): void {
  const about = Array.isArray(event.about) ? event.about : null;
  // One UTF-8 buffer per frame for every recipient: ws would otherwise convert a string per
  // socket. Made at the first recipient: an instance holding none of the event's sockets
  // (most instances, for a private message) serialises nothing.
  let frames: Buffer[] | null = null;
  const send = (socket: WebSocket) => {
    if (socket.readyState !== socket.OPEN) return;
    if (event.except !== undefined && clients.ids.get(socket) === event.except) return;
    if (clients.hidden.hides(socket, about)) return;
    frames ??= [{ type: event.type, data: event.data }, ...(Array.isArray(event.more) ? event.more : [])].map((frame) =>
      Buffer.from(JSON.stringify(frame)),
    );
    clients.writes.hold(socket);
    for (const frame of frames) socket.send(frame, { binary: false });
  };
  if (!event.targets) {
    const at = event.at;
    if (at) clients.watching.forEachContaining(at.latitude, at.longitude, send);
    else clients.sockets.forEach(send);
    return;
  }
  for (const userId of new Set(event.targets)) {
    for (const socket of clients.identities.of(userId)) {
      // The timer may not have fired yet (or the clock moved): never a private frame past expiry.
      if (clients.identities.expired(socket)) clients.identities.endSession(socket);
      else send(socket);
    }
  }
}
