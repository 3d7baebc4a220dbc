/**
 * The WebSocket hub of one server instance: `/api/realtime`. Every open tab connects (signed in
 * or not) and receives public events (posts on the map); a tab that authenticates with its
 * access token also receives the private events targeted at its user (messages, read marks).
 * Events arrive from the bus, so they cross instances.
 *
 * Protocol (JSON text frames):
 *   client → { "type": "auth", "token": "<access token>" }   (again after each refresh)
 *   client → { "type": "view", "west", "south", "east", "north" }   (core's realtime.ts; on move)
 *   client → { "type": "message.send", "ref", … }   a request (core's SOCKET_REQUESTS), answered
 *            once by { "type": "reply", "ref", "data" | "status" + "error" } (socket-requests.ts)
 *   server → { "type": "ready", "userId": string | null }
 *   server → { "type": "<event type>", "data": … }
 *   server → { "type": "ready", "userId": null, "reason": "session_ended" }
 * The token travels in a message, not in the URL, so it never lands in access logs.
 *
 * Who gets an event: one with `targets` goes to those users' sockets only; one with
 * `at` (a post's place) to the sockets whose last `view` contains that point, found through a
 * spatial index (view-index.ts), so a post costs its recipients, not every open tab — a socket
 * that sent no view gets none; any other event to every socket. Each frame is serialised once,
 * to one buffer that every recipient's socket writes.
 *
 * A socket's identity lasts as long as its session and its token (docs/architecture.md, A realtime event): it ends when
 * the access token expires (a timer, and a check before each private frame) and when the
 * session is revoked on any instance (the bus's internal `session.revoked`, session-events.ts).
 * The socket then gets a `ready` as a visitor, and stays open; the web client sends `auth`
 * again with its renewed token.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@moodmap/core';
import type { EventBus } from '../adapters/bus/types.ts';
import { errorBody } from '../errors.ts';
import { createClients } from './clients.ts';
import { dispatch } from './dispatch.ts';
import { startHeartbeat } from './heartbeat.ts';
import type { HubBlocks } from './socket-blocks.ts';
import type { TokenVerifier } from './socket-identities.ts';
import { openSocket } from './socket-protocol.ts';
import { createSocketRequests, type SocketRequests } from './socket-requests.ts';

export async function installRealtime(
  app: FastifyInstance,
  bus: EventBus,
  verifyToken: TokenVerifier,
  blocks?: HubBlocks,
): Promise<void> {
  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  // The app's clock (tests move it), which the access tokens' expiry is measured against.
  const now = () => (app.hasDecorator('ctx') ? app.ctx.now().getTime() : Date.now());
  const clients = createClients(now, blocks);
  const requests = createSocketRequests(app.log);
  app.decorate('socketRequests', requests);
  const hub = { clients, verifyToken, requests };
  const unsubscribe = bus.subscribe((event) => dispatch(clients, event));

  app.route({
    method: 'GET',
    url: '/api/realtime',
    // A plain GET (no Upgrade) gets the API's error shape, not the plugin's empty 404.
    handler: async (_request, reply) =>
      reply.status(426).header('upgrade', 'websocket').send(errorBody('bad_request', MESSAGES.bad_request)),
    wsHandler: (socket, request) => openSocket(hub, socket, request.raw.socket, request.ip),
  });

  const stopHeartbeat = startHeartbeat(clients);
  app.addHook('onClose', async () => {
    stopHeartbeat();
    unsubscribe();
    for (const socket of clients.sockets) {
      clients.identities.set(socket, null);
      socket.close(1001, 'server shutting down');
    }
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where a feature registers a request its members may make over the socket (socket-requests.ts). */
    socketRequests: SocketRequests;
  }
}
