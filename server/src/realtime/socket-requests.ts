/**
 * Requests a signed-in socket makes (core's SOCKET_REQUESTS), each answered once on that socket
 * with the data its handler returns or with the refusal it throws, in the API's error shape. A
 * feature module registers its handler; the hub checks who asks before the handler runs.
 */
import type { WebSocket } from 'ws';
import { SOCKET_REF_MAX, SOCKET_REPLY, type MessageKey } from '@moodmap/core';
import { AppError, appError, badRequest, unauthorized } from '../errors.ts';
import { serverFault } from '../http/error-handler.ts';
import type { Clients } from './clients.ts';

/** Who asks: the socket's identity, the address its connection came from, the socket's id. */
export interface SocketCaller {
  userId: string;
  ip: string;
  socketId: string;
}

export interface SocketRequestHandler {
  /** Answers one request frame (already parsed, its type known): the reply's data, or throws. */
  run(caller: SocketCaller, frame: Record<string, unknown>): Promise<unknown>;
  /** The 429's text for a socket over REQUESTS_IN_FLIGHT_MAX. */
  busy: MessageKey;
}

/**
 * Requests one socket may have under way at once: a tab sends one message at a time, and a
 * socket that floods frames waits for its own answers instead of queuing work on the server.
 */
export const REQUESTS_IN_FLIGHT_MAX = 8;

export function createSocketRequests(log: Parameters<typeof serverFault>[1]) {
  const handlers = new Map<string, SocketRequestHandler>();
  const inFlight = new WeakMap<WebSocket, number>();

  /** The reply to a refused request: the HTTP route's status, error body and Retry-After. */
  function refusal(error: unknown) {
    const refused = error instanceof AppError ? error : serverFault(error, log);
    const retryAfter = Number(refused.headers['retry-after']);
    return {
      status: refused.status,
      error: { ...refused.details, code: refused.code, message: refused.message },
      ...(Number.isFinite(retryAfter) ? { retryAfter } : {}),
    };
  }

  return {
    handle(type: string, handler: SocketRequestHandler): void {
      handlers.set(type, handler);
    },
    has: (type: unknown): boolean => typeof type === 'string' && handlers.has(type),

    /**
     * Answers `frame` on `socket`. A frame without a usable `ref` cannot be answered and is
     * dropped; `forbidden`: the frame holds text no route accepts (a NUL, a lone surrogate).
     */
    async answer(
      clients: Clients,
      socket: WebSocket,
      ip: string,
      frame: Record<string, unknown>,
      forbidden: MessageKey | null,
    ): Promise<void> {
      const { ref } = frame;
      if (typeof ref !== 'string' || ref.length === 0 || ref.length > SOCKET_REF_MAX) return;
      const count = inFlight.get(socket) ?? 0;
      inFlight.set(socket, count + 1);
      let reply: object;
      try {
        const handler = typeof frame.type === 'string' ? handlers.get(frame.type) : undefined;
        if (!handler) throw badRequest('bad_request');
        if (forbidden) throw badRequest(forbidden);
        if (count >= REQUESTS_IN_FLIGHT_MAX) throw appError(429, handler.busy);
        const socketId = clients.ids.get(socket) ?? '';
        reply = { data: await handler.run({ userId: callerId(clients, socket), ip, socketId }, frame) };
      } catch (error) {
        reply = refusal(error);
      } finally {
        inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1);
      }
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: SOCKET_REPLY, ref, ...reply }));
    },
  };
}

/** The socket's user, its token still valid; a visitor (or a lapsed session) is refused. */
function callerId(clients: Clients, socket: WebSocket): string {
  const userId = clients.identities.userOf(socket);
  if (!userId) throw unauthorized();
  if (clients.identities.expired(socket)) {
    clients.identities.endSession(socket);
    throw unauthorized();
  }
  return userId;
}

export type SocketRequests = ReturnType<typeof createSocketRequests>;
