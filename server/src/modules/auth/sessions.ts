/**
 * Sessions (one per sign-in) and their rotating refresh tokens.
 *
 * Rotation: a refresh token is exchanged once. Its successor is not random but
 * HMAC(server key, token), and inserted with ON CONFLICT DO NOTHING, so exchanging the same
 * token twice yields the same successor. That is the grace window: several tabs refreshing
 * with the same token at once (or a retried request whose answer was lost) all succeed and end
 * up holding the same new token — no branch in the family, no lock, no stored plaintext. Once
 * the window (30 s after the first exchange) is over, presenting the old token again means it
 * was copied: the whole session is revoked (reuse detection) and every token of it dies,
 * access tokens included, since each authenticated request checks the session row.
 *
 * Every revocation is also announced on the bus (session-events.ts): WebSockets authenticated
 * with a revoked session lose their identity on every instance, not only at their next `auth`.
 *
 * A session found live is remembered by each instance for its access token's life (so a
 * message send does not wait on this lookup); the bus's revocation drops it from every
 * instance's memory at once, the revoking instance's before it even publishes. A lookup that
 * was under way when a revocation (or a bus reconnect, when events may have been missed)
 * arrived is not remembered.
 */
import { BUS_RESUMED } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import { sessionsRevoked } from './session-events.ts';
import { sessionIdentifier } from './session-identity.ts';
import { createSessionMemory } from './session-memory.ts';
import type { IssuedSession, RotateResult, SessionDeps, SessionKind } from './session-model.ts';
import { createRevocation } from './session-revocation.ts';
import {
  consumeRecoveryToken,
  findRefreshToken,
  insertFirstToken,
  insertSession,
  insertSuccessor,
  markRotated,
  purgeExpired,
} from './session-rows.ts';
import { ACCESS_TOKEN_TTL_SECONDS, hashToken, randomToken, signAccessToken, successorToken } from './tokens.ts';

export { REFRESH_GRACE_MS, REFRESH_TOKEN_TTL_MS, type Identity, type IssuedSession } from './session-model.ts';

/** Expired refresh tokens are purged every this many rotations. */
const PURGE_EVERY = 200;

export function createSessions(deps: SessionDeps) {
  const { db, keys, now } = deps;
  let rotations = 0;
  const memory = createSessionMemory(now);
  // Revocations made by any instance (this one's included) and missed events after a bus outage.
  deps.bus.subscribe((event) => {
    const revocation = sessionsRevoked(event);
    if (revocation) memory.forget(revocation.sessionIds);
    else if (event.type === BUS_RESUMED) memory.forgetAll();
  });
  const { revoke, revokeAllOf, revokeIfReused } = createRevocation(deps, memory);

  async function issue(
    userId: string,
    email: string,
    sessionId: string,
    refreshToken: string,
    at: Date,
  ): Promise<IssuedSession> {
    const accessToken = await signAccessToken(keys, { userId, email, sessionId }, at);
    return { userId, sessionId, accessToken, refreshToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
  }

  return {
    /** Opens a session: a new family with its first refresh token. */
    async start(user: { id: string; email: string }, kind: SessionKind): Promise<IssuedSession> {
      const at = now();
      const sessionId = await insertSession(db, user.id, kind, at);
      const refreshToken = randomToken();
      await insertFirstToken(db, { userId: user.id, sessionId, hash: hashToken(refreshToken), at });
      return issue(user.id, user.email, sessionId, refreshToken, at);
    },

    /** Exchanges a refresh token for a new access token and its successor (see the header). */
    async rotate(
      raw: string,
      email: (userId: string) => Promise<string | null>,
      ip: string | null,
    ): Promise<RotateResult> {
      const at = now();
      const row = await findRefreshToken(db, raw);
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.revokedAt) return { ok: false, reason: 'revoked', userId: row.userId };
      if (row.expiresAt.getTime() <= at.getTime()) return { ok: false, reason: 'expired', userId: row.userId };
      if (await revokeIfReused(row, at, ip)) return { ok: false, reason: 'reused', userId: row.userId };
      const address = await email(row.userId);
      if (!address) return { ok: false, reason: 'unknown' };

      const successor = successorToken(keys, raw);
      const successorHash = hashToken(successor);
      await insertSuccessor(db, { userId: row.userId, sessionId: row.sessionId, hash: successorHash, at });
      await markRotated(db, row.id, successorHash, at);
      if (++rotations % PURGE_EVERY === 0) purgeExpired(db, at).catch(() => {});
      return { ok: true, session: await issue(row.userId, address, row.sessionId, successor, at) };
    },

    /**
     * The session a refresh token belongs to. `live`: neither revoked nor expired; `current`:
     * the token was not exchanged yet (it is the newest of its family). A reused token revokes
     * its session, as a refresh does.
     */
    async sessionOfRefreshToken(
      raw: string,
      ip: string | null,
    ): Promise<{ sessionId: string; userId: string; kind: string; live: boolean; current: boolean } | null> {
      const row = await findRefreshToken(db, raw);
      if (!row) return null;
      const at = now();
      const reused = await revokeIfReused(row, at, ip);
      return {
        sessionId: row.sessionId,
        userId: row.userId,
        kind: row.kind,
        live: !reused && !row.revokedAt && row.expiresAt.getTime() > at.getTime(),
        current: row.rotatedAt === null,
      };
    },

    /**
     * Uses up a recovery session's current refresh token (exactly one of concurrent calls gets
     * true). `executor`: the caller's transaction, so the password change and the consumption
     * commit together.
     */
    consumeRecovery: (executor: Db, sessionId: string, raw: string): Promise<boolean> =>
      consumeRecoveryToken(executor, sessionId, raw, now()),

    revoke,
    purge: (at: Date): Promise<void> => purgeExpired(db, at),
    revokeAllOf,
    identify: sessionIdentifier(deps, memory),
  };
}

export type Sessions = ReturnType<typeof createSessions>;
