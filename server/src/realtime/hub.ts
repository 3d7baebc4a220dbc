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
  const alive = new WeakMap<WebSocket, boolean>();

  const unsubscribe = bus.subscribe((event: RealtimeEvent) => {
    const frame = JSON.stringify({ type: event.type, data: event.data });
    const targets = event.targets ? new Set(event.targets) : null;
    for (const socket of sockets) {
      if (socket.readyState !== socket.OPEN) continue;
      if (targets && !targets.has(userOf.get(socket) ?? '')) continue;
      socket.send(frame);
    }
  });

  app.get('/api/realtime', { websocket: true }, (socket) => {
    sockets.add(socket);
    alive.set(socket, true);
    socket.on('pong', () => alive.set(socket, true));
    socket.on('close', () => sockets.delete(socket));
    socket.on('message', async (raw) => {
      let message: { type?: string; token?: string };
      try {
        message = JSON.parse(String(raw));
      } catch {
        return;
      }
      if (message.type === 'auth') {
        const identity = typeof message.token === 'string' ? await verifyToken(message.token) : null;
        if (identity) userOf.set(socket, identity.userId);
        else userOf.delete(socket);
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
        sockets.delete(socket);
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
