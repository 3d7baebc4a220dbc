/**
 * The WebSocket hub of one server instance: `/api/realtime`. Every open tab connects (signed in
 * or not) and receives public events (posts on the map); a tab that authenticates with its
 * access token also receives the private events targeted at its user (messages, read marks).
 * Events arrive from the bus, so they cross instances.
 *
 * Protocol (JSON text frames):
 *   client → { "type": "auth", "token": "<access token>" }   (again after each refresh)
 *   server → { "type": "ready", "userId": string | null }
 *   server → { "type": "<event type>", "data": … }
 * The token travels in a message, not in the URL, so it never lands in access logs.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { EventBus, RealtimeEvent } from '../adapters/bus/types.ts';

export type TokenVerifier = (token: string) => Promise<{ userId: string } | null>;

const HEARTBEAT_MS = 30_000;

export async function installRealtime(app: FastifyInstance, bus: EventBus, verifyToken: TokenVerifier): Promise<void> {
  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  const sockets = new Set<WebSocket>();
  const userOf = new WeakMap<WebSocket, string>();
  // Private events go straight to their users' sockets: a message costs the same whether
  // ten or ten thousand other people are connected.
  const socketsOf = new Map<string, Set<WebSocket>>();
  const alive = new WeakMap<WebSocket, boolean>();

  function setUser(socket: WebSocket, userId: string | null): void {
    const previous = userOf.get(socket);
    if (previous === userId) return;
    if (previous) {
      const set = socketsOf.get(previous);
      set?.delete(socket);
      if (set?.size === 0) socketsOf.delete(previous);
      userOf.delete(socket);
    }
    if (userId) {
      userOf.set(socket, userId);
      let set = socketsOf.get(userId);
      if (!set) socketsOf.set(userId, (set = new Set()));
      set.add(socket);
    }
  }

  function forget(socket: WebSocket): void {
    sockets.delete(socket);
    setUser(socket, null);
  }

  const unsubscribe = bus.subscribe((event: RealtimeEvent) => {
    const frame = JSON.stringify({ type: event.type, data: event.data });
    const send = (socket: WebSocket) => {
      if (socket.readyState === socket.OPEN) socket.send(frame);
    };
    if (!event.targets) {
      sockets.forEach(send);
      return;
    }
    for (const userId of new Set(event.targets)) socketsOf.get(userId)?.forEach(send);
  });

  app.get('/api/realtime', { websocket: true }, (socket) => {
    sockets.add(socket);
    alive.set(socket, true);
    socket.on('pong', () => alive.set(socket, true));
    socket.on('close', () => forget(socket));
    socket.on('message', async (raw) => {
      let message: { type?: string; token?: string };
      try {
        message = JSON.parse(String(raw));
      } catch {
        return;
      }
      if (message.type === 'auth') {
        const identity = typeof message.token === 'string' ? await verifyToken(message.token) : null;
        if (!sockets.has(socket)) return; // closed while the token was being checked
        setUser(socket, identity?.userId ?? null);
        socket.send(JSON.stringify({ type: 'ready', userId: identity?.userId ?? null }));
      } else if (message.type === 'ping') {
        socket.send(JSON.stringify({ type: 'pong' }));
      }
    });
    socket.send(JSON.stringify({ type: 'ready', userId: null }));
  });

  // Drops sockets whose peer vanished without closing (mobile networks, sleeping laptops).
  const heartbeat = setInterval(() => {
    for (const socket of sockets) {
      if (!alive.get(socket)) {
        socket.terminate();
        forget(socket);
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    unsubscribe();
    for (const socket of sockets) socket.close(1001, 'server shutting down');
  });
}
