/**
 * Who each socket is: its identity, indexed by socket and by user (private events go straight to
 * their users' sockets, so a message costs the same whether ten or ten thousand other people are
 * connected). An identity ends with its access token (a timer) or its session's revocation; the
 * socket then goes on as a visitor.
 */
import type { WebSocket } from 'ws';
import { MINUTE } from '@moodmap/core';
import type { SocketBlocks } from './socket-blocks.ts';

export interface SocketIdentity {
  userId: string;
  sessionId: string;
  /** The access token's expiry, epoch ms. */
  expiresAtMs: number;
}

export type TokenVerifier = (token: string) => Promise<SocketIdentity | null>;

/** setTimeout's longest delay; a later expiry is caught by the check before each frame. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * Revocations remembered this long, for an `auth` whose token check was already under way
 * when the revocation arrived (its database read may predate the revocation).
 */
const RECENT_REVOCATION_MS = MINUTE;

export function createSocketIdentities(now: () => number, blocks: SocketBlocks) {
  const identityOf = new WeakMap<WebSocket, SocketIdentity & { timer: ReturnType<typeof setTimeout> }>();
  const socketsOf = new Map<string, Set<WebSocket>>();
  const recentlyRevoked = new Map<string, number>();

  /** Who the socket is, in both indexes; null: a visitor. */
  function setIdentity(socket: WebSocket, identity: SocketIdentity | null): void {
    const previous = identityOf.get(socket);
    // The same person again (a refreshed token): whom they must not hear of is known already and
    // is read again after; holding back every event meanwhile would drop their own news.
    const samePerson = previous !== undefined && previous.userId === identity?.userId;
    if (!samePerson) blocks.clear(socket);
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
    if (!samePerson) blocks.hideEveryoneUntilLoaded(socket);
    const timer = setTimeout(
      () => endSession(socket),
      Math.min(MAX_TIMER_MS, Math.max(0, identity.expiresAtMs - now())),
    );
    timer.unref();
    identityOf.set(socket, { ...identity, timer });
  }

  /** The socket's session is over (token expired, session revoked): it goes on as a visitor. */
  function endSession(socket: WebSocket): void {
    if (!identityOf.has(socket)) return;
    setIdentity(socket, null);
    if (socket.readyState === socket.OPEN)
      socket.send(JSON.stringify({ type: 'ready', userId: null, reason: 'session_ended' }));
  }

  return {
    set: setIdentity,
    endSession,
    /** The socket's user; null: a visitor. */
    userOf: (socket: WebSocket): string | null => identityOf.get(socket)?.userId ?? null,
    /** The user's sockets, copied: ending a session changes the set. */
    of: (userId: string): WebSocket[] => [...(socketsOf.get(userId) ?? [])],
    expired(socket: WebSocket): boolean {
      const identity = identityOf.get(socket);
      return !identity || identity.expiresAtMs <= now();
    },
    /** A verified identity, unless its session was revoked meanwhile or its token expired. */
    accept(identity: SocketIdentity | null): SocketIdentity | null {
      return identity && (recentlyRevoked.has(identity.sessionId) || identity.expiresAtMs <= now()) ? null : identity;
    },
    revoked(userId: string, sessionIds: string[]): void {
      const at = now();
      for (const [id, until] of recentlyRevoked) if (until <= at) recentlyRevoked.delete(id);
      for (const id of sessionIds) recentlyRevoked.set(id, at + RECENT_REVOCATION_MS);
      const ended = new Set(sessionIds);
      for (const socket of [...(socketsOf.get(userId) ?? [])]) {
        const identity = identityOf.get(socket);
        if (identity && ended.has(identity.sessionId)) endSession(socket);
      }
    },
    /** Reads whom the socket's person must hear nothing about (after an auth, or a block change). */
    loadHidden: (socket: WebSocket, userId: string) =>
      blocks.load(socket, userId, () => identityOf.get(socket)?.userId === userId),
  };
}

export type SocketIdentities = ReturnType<typeof createSocketIdentities>;
