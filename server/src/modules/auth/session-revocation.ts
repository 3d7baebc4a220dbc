/**
 * Ending sessions: sign-out, a password change, and reuse detection. Every revocation is
 * forgotten by this instance at once and announced on the bus to the others (session-events.ts).
 */
import { publishSessionsRevoked } from './session-events.ts';
import type { SessionMemory } from './session-memory.ts';
import { REFRESH_GRACE_MS, type SessionDeps } from './session-model.ts';
import { revokeSession, revokeSessionsOf } from './session-rows.ts';

export interface Revocation {
  revoke(sessionId: string): Promise<void>;
  /** Ends every session of a user but `except` (password change, reset). */
  revokeAllOf(userId: string, except?: string): Promise<void>;
  /**
   * Reuse detection, wherever a refresh token is accepted (refresh, reset, sign-out): a token
   * exchanged more than the grace window ago means it was copied, so its session is revoked.
   * True when that happened.
   */
  revokeIfReused(
    row: { userId: string; sessionId: string; rotatedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
    at: Date,
    ip: string | null,
  ): Promise<boolean>;
}

export function createRevocation(
  { db, now, logSecurityEvent, bus, log }: SessionDeps,
  memory: SessionMemory,
): Revocation {
  /**
   * Tells every instance these sessions ended. A bus failure must not fail the sign-out or the
   * password change: the sockets then keep their identity until their token expires (≤ 15 min).
   */
  async function announce(rows: Array<{ id: string; userId: string }>): Promise<void> {
    if (rows.length === 0) return;
    memory.forget(rows.map((r) => r.id)); // this instance at once, without waiting for the bus's echo
    await publishSessionsRevoked(
      bus,
      rows[0].userId,
      rows.map((r) => r.id),
    ).catch((err) => log.error({ err }, 'session revocation not announced on the bus'));
  }

  async function revoke(sessionId: string): Promise<void> {
    await announce(await revokeSession(db, sessionId, now()));
  }

  return {
    revoke,
    async revokeAllOf(userId, except) {
      await announce(await revokeSessionsOf(db, userId, except, now()));
    },
    async revokeIfReused(row, at, ip) {
      if (row.revokedAt || row.expiresAt.getTime() <= at.getTime()) return false; // dead already
      if (!row.rotatedAt || at.getTime() - row.rotatedAt.getTime() <= REFRESH_GRACE_MS) return false;
      await revoke(row.sessionId);
      await logSecurityEvent({
        userId: row.userId,
        ip,
        eventType: 'refresh_token_reuse',
        description: 'Jeton de rafraîchissement déjà utilisé présenté de nouveau : session révoquée',
        severity: 'high',
      });
      return true;
    },
  };
}
