/**
 * The WebSocket hub of one server instance: `/api/realtime`. Every open tab connects (signed in
 * or not) and receives public events (posts on the map); a tab that authenticates with its
 * access token also receives the private events targeted at its user (messages, read marks).
 * Events arrive from the bus, so they cross instances.
 *
 * Protocol (JSON text frames):
 *   client → { "type": "auth", "token": "<access token>" }   (again after each refresh)
 *   client → { "type": "view", "west", "south", "east", "north" }   (core's realtime.ts; on move)
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
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { BUS_RESUMED, type EventBus, type RealtimeEvent } from '../adapters/bus/types.ts';
import { sessionsRevoked } from '../modules/auth/session-events.ts';
import { blocksChanged } from '../modules/blocks/relations.ts';
import { MESSAGES, MINUTE } from '@moodmap/core';
import { errorBody } from '../errors.ts';
import { forbiddenTextCode } from '../http/nul-guard.ts';
import { createViewIndex } from './view-index.ts';
import { parseView } from './view.ts';

/**
 * A client frame: a JSON object, or nothing (`null`, `7`, `[]`, broken JSON and text no route
 * accepts, a NUL or a lone surrogate, are ignored).
 */
function parseFrame(raw: unknown): { type?: unknown; token?: unknown } | null {
  try {
    const value: unknown = JSON.parse(String(raw));
    if (forbiddenTextCode(value)) return null;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

export interface SocketIdentity {
  userId: string;
  sessionId: string;
  /** The access token's expiry, epoch ms. */
  expiresAtMs: number;
}

export type TokenVerifier = (token: string) => Promise<SocketIdentity | null>;

const HEARTBEAT_MS = 30_000;
/** setTimeout's longest delay; a later expiry is caught by the check before each frame. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * Revocations remembered this long, for an `auth` whose token check was already under way
 * when the revocation arrived (its database read may predate the revocation).
 */
const RECENT_REVOCATION_MS = MINUTE;

/** Whom a person blocked or was blocked by (modules/blocks/relations.ts). */
export interface HubBlocks {
  of(userId: string): Promise<Set<string>>;
}

export async function installRealtime(app: FastifyInstance, bus: EventBus, verifyToken: TokenVerifier, blocks?: HubBlocks): Promise<void> {
  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  const sockets = new Set<WebSocket>();
  const identityOf = new WeakMap<WebSocket, SocketIdentity & { timer: ReturnType<typeof setTimeout> }>();
  const recentlyRevoked = new Map<string, number>();
  // The app's clock (tests move it), which the access tokens' expiry is measured against.
  const now = () => (app.hasDecorator('ctx') ? app.ctx.now().getTime() : Date.now());
  // Private events go straight to their users' sockets: a message costs the same whether
  // ten or ten thousand other people are connected.
  const socketsOf = new Map<string, Set<WebSocket>>();
  const alive = new WeakMap<WebSocket, boolean>();
  /** What each socket's map shows: post events go to the sockets whose view holds the post. */
  const watching = createViewIndex<WebSocket>();
  /**
   * The people each signed-in socket must hear nothing about, kept on the socket so
   * an event's cost stays one set lookup per recipient. Absent: nobody.
   */
  const hiddenOf = new WeakMap<WebSocket, Set<string>>();
  async function loadHidden(socket: WebSocket, userId: string): Promise<void> {
    if (!blocks) return;
    const hidden = await blocks.of(userId).catch(() => null);
    if (identityOf.get(socket)?.userId !== userId) return; // signed out or changed meanwhile
    if (hidden?.size) hiddenOf.set(socket, hidden);
    else hiddenOf.delete(socket);
  }

  /** Who the socket is, in both indexes (by socket, and by user for private events); null: a visitor. */
  function setIdentity(socket: WebSocket, identity: SocketIdentity | null): void {
    const previous = identityOf.get(socket);
    hiddenOf.delete(socket);
    if (previous) {
      clearTimeout(previous.timer);
      identityOf.delete(socket);
      const set = socketsOf.get(previous.userId);
      set?.delete(socket);
      if (set?.size === 0) socketsOf.delete(previous.userId);
    }
    if (!identity) return;
    let set = socketsOf.get(identity.userId);
    if (!set) socketsOf.set(identity.userId, (set = new Set()));
    set.add(socket);
    const timer = setTimeout(() => endSession(socket), Math.min(MAX_TIMER_MS, Math.max(0, identity.expiresAtMs - now())));
    timer.unref();
    identityOf.set(socket, { ...identity, timer });
  }

  /** The socket's session is over (token expired, session revoked): it goes on as a visitor. */
  function endSession(socket: WebSocket): void {
    if (!identityOf.has(socket)) return;
    setIdentity(socket, null);
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'ready', userId: null, reason: 'session_ended' }));
  }

  const expired = (socket: WebSocket) => {
    const identity = identityOf.get(socket);
    return !identity || identity.expiresAtMs <= now();
  };

  function revoked(userId: string, sessionIds: string[]): void {
    const at = now();
    for (const [id, until] of recentlyRevoked) if (until <= at) recentlyRevoked.delete(id);
    for (const id of sessionIds) recentlyRevoked.set(id, at + RECENT_REVOCATION_MS);
    const ended = new Set(sessionIds);
    for (const socket of [...(socketsOf.get(userId) ?? [])]) {
      const identity = identityOf.get(socket);
      if (identity && ended.has(identity.sessionId)) endSession(socket);
    }
  }

  /**
   * The TCP connection under each socket. Frames sent while the bus hands over one
   * notification's events are held (cork) and leave together once it is done (uncork): a
   * message's two frames, and a batch's frames for one socket, cost one write system call, not
   * one each. Frames and their order are unchanged.
   */
  const connectionOf = new WeakMap<WebSocket, Duplex>();
  const held: Duplex[] = [];
  const releaseWrites = () => {
    for (const connection of held.splice(0)) connection.uncork();
  };
  function holdWrites(socket: WebSocket): void {
    const connection = connectionOf.get(socket);
    if (!connection || connection.writableCorked) return;
    connection.cork();
    if (held.push(connection) === 1) process.nextTick(releaseWrites);
  }

  function forget(socket: WebSocket): void {
    sockets.delete(socket);
    watching.delete(socket);
    setIdentity(socket, null);
  }

  const unsubscribe = bus.subscribe((event: RealtimeEvent) => {
    const revocation = sessionsRevoked(event);
    if (revocation) return revoked(revocation.userId, revocation.sessionIds);
    if (event.type === BUS_RESUMED) return; // the bus's own news, not for browsers
    const reblocked = blocksChanged(event);
    if (reblocked) {
      // Internal too. A block hides each from the other at once; then the two people's sockets
      // reload whom they must not hear about (an unblock shows the other again after that read).
      const [a, b] = reblocked.users;
      for (const userId of reblocked.users) {
        const other = userId === a ? b : a;
        for (const socket of socketsOf.get(userId) ?? []) {
          if (reblocked.blocked && other) hiddenOf.set(socket, new Set([...(hiddenOf.get(socket) ?? []), other]));
          void loadHidden(socket, userId);
        }
      }
      return;
    }
    const about = Array.isArray(event.about) ? event.about : null;
    // One UTF-8 buffer per frame for every recipient: ws would otherwise convert a string per
    // socket. Made at the first recipient: an instance holding none of the event's sockets
    // (most instances, for a private message) serialises nothing.
    let frames: Buffer[] | null = null;
    const send = (socket: WebSocket) => {
      if (socket.readyState !== socket.OPEN) return;
      const hidden = about && hiddenOf.get(socket);
      if (hidden && about.some((id) => hidden.has(id))) return;
      frames ??= [{ type: event.type, data: event.data }, ...(Array.isArray(event.more) ? event.more : [])].map((frame) => Buffer.from(JSON.stringify(frame)));
      holdWrites(socket);
      for (const frame of frames) socket.send(frame, { binary: false });
    };
    if (!event.targets) {
      const at = event.at;
      if (at) watching.forEachContaining(at.latitude, at.longitude, send);
      else sockets.forEach(send);
      return;
    }
    for (const userId of new Set(event.targets)) {
      for (const socket of [...(socketsOf.get(userId) ?? [])]) {
        // The timer may not have fired yet (or the clock moved): never a private frame past expiry.
        if (expired(socket)) endSession(socket);
        else send(socket);
      }
    }
  });

  app.route({
    method: 'GET',
    url: '/api/realtime',
    // A plain GET (no Upgrade) gets the API's error shape, not the plugin's empty 404.
    handler: async (_request, reply) => reply.status(426).header('upgrade', 'websocket').send(errorBody('bad_request', MESSAGES.bad_request)),
    wsHandler: (socket, request) => {
      sockets.add(socket);
      // The upgraded request's connection is the one the WebSocket writes to.
      connectionOf.set(socket, request.raw.socket);
      alive.set(socket, true);
      socket.on('pong', () => alive.set(socket, true));
      socket.on('close', () => forget(socket));
      socket.on('message', async (raw) => {
        const message = parseFrame(raw);
        if (!message) return;
        if (message.type === 'auth') {
          // A failed check (the database away) must not reject this listener's promise: an
          // unhandled rejection ends the process. The socket stays a visitor until the next auth.
          let identity = typeof message.token === 'string' ? await verifyToken(message.token).catch(() => null) : null;
          if (!sockets.has(socket)) return; // closed while the token was being checked
          if (identity && (recentlyRevoked.has(identity.sessionId) || identity.expiresAtMs <= now())) identity = null;
          setIdentity(socket, identity);
          if (identity) await loadHidden(socket, identity.userId);
          if (socket.readyState !== socket.OPEN) return;
          socket.send(JSON.stringify({ type: 'ready', userId: identity?.userId ?? null }));
        } else if (message.type === 'view') {
          // A malformed view is ignored: the socket keeps the view it had (or none).
          const view = parseView(message);
          if (view) watching.set(socket, view);
        } else if (message.type === 'ping') {
          socket.send(JSON.stringify({ type: 'pong' }));
        }
      });
      socket.send(JSON.stringify({ type: 'ready', userId: null }));
    },
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
    for (const socket of sockets) {
      setIdentity(socket, null);
      socket.close(1001, 'server shutting down');
    }
  });
}
