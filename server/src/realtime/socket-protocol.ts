/** One socket's side of the protocol (hub.ts): the frames it sends, and what each one does. */
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { isRecord } from '@moodmap/core';
import { forbiddenTextCode } from '../http/nul-guard.ts';
import type { Clients } from './clients.ts';
import type { TokenVerifier } from './socket-identities.ts';
import type { SocketRequests } from './socket-requests.ts';
import { parseView } from './view.ts';

/** What every socket of the instance shares. */
export interface Hub {
  clients: Clients;
  verifyToken: TokenVerifier;
  requests: SocketRequests;
}

/** A client frame: a JSON object, or nothing (`null`, `7`, `[]` and broken JSON are ignored). */
function parseFrame(raw: unknown): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(String(raw));
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * A socket just upgraded; `connection`: the upgraded request's, which the WebSocket writes to;
 * `ip`: the address the request came from.
 */
export function openSocket(hub: Hub, socket: WebSocket, connection: Duplex, ip: string): void {
  const { clients } = hub;
  clients.sockets.add(socket);
  clients.ids.set(socket, randomUUID());
  clients.writes.attach(socket, connection);
  clients.alive.set(socket, true);
  socket.on('pong', () => clients.alive.set(socket, true));
  socket.on('close', () => clients.forget(socket));
  socket.on('message', (raw) => onFrame(hub, socket, ip, raw));
  socket.send(JSON.stringify({ type: 'ready', userId: null }));
}

async function onFrame({ clients, verifyToken, requests }: Hub, socket: WebSocket, ip: string, raw: RawData) {
  const message = parseFrame(raw);
  if (!message) return;
  const forbidden = forbiddenTextCode(message);
  // A request is answered, even with its refusal; any other frame with text no route accepts
  // (a NUL, a lone surrogate) is ignored.
  if (requests.has(message.type)) {
    await requests.answer(clients, socket, ip, message, forbidden);
    return;
  }
  if (forbidden) return;
  if (message.type === 'auth') {
    await authenticate(clients, verifyToken, socket, message.token);
  } else if (message.type === 'view') {
    // A malformed view is ignored: the socket keeps the view it had (or none).
    const view = parseView(message);
    if (view) clients.watching.set(socket, view);
  } else if (message.type === 'ping') {
    socket.send(JSON.stringify({ type: 'pong' }));
  }
}

async function authenticate(
  clients: Clients,
  verifyToken: TokenVerifier,
  socket: WebSocket,
  token: unknown,
): Promise<void> {
  // A failed check (the database away) must not reject this listener's promise: an
  // unhandled rejection ends the process. The socket stays a visitor until the next auth.
  const verified = typeof token === 'string' ? await verifyToken(token).catch(() => null) : null;
  if (!clients.sockets.has(socket)) return; // closed while the token was being checked
  const identity = clients.identities.accept(verified);
  clients.identities.set(socket, identity);
  if (identity) await clients.identities.loadHidden(socket, identity.userId);
  if (socket.readyState !== socket.OPEN) return;
  socket.send(JSON.stringify({ type: 'ready', userId: identity?.userId ?? null }));
}
