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
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { DAY } from '@moodmap/core';
import { BUS_RESUMED, type EventBus } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import { authSessions, refreshTokens } from '../../db/schema.ts';
import type { LogSecurityEvent } from '../security/log.ts';
import { publishSessionsRevoked, sessionsRevoked } from './session-events.ts';
import { ACCESS_TOKEN_TTL_SECONDS, hashToken, randomToken, signAccessToken, successorToken, verifyAccessToken, type AuthKeys } from './tokens.ts';

export const REFRESH_TOKEN_TTL_MS = 30 * DAY;
export const REFRESH_GRACE_MS = 30_000;
/** Expired refresh tokens are purged every this many rotations. */
const PURGE_EVERY = 200;
/** The live-session memory drops the entries past their token's expiry every this many fills. */
const SWEEP_EVERY = 1000;

export type SessionKind = 'password' | 'signup' | 'recovery';

export interface IssuedSession {
  userId: string;
  sessionId: string;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export interface Identity {
  userId: string;
  email: string;
  sessionId: string;
  /** When the access token expires (epoch ms). */
  expiresAtMs: number;
}

export type RotateResult =
  | { ok: true; session: IssuedSession }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused'; userId?: string };

export interface SessionDeps {
  db: Db;
  keys: AuthKeys;
  now: () => Date;
  logSecurityEvent: LogSecurityEvent;
  /** Where revocations are announced to every instance's WebSocket hub. */
  bus: EventBus;
  log: FastifyBaseLogger;
}

export function createSessions({ db, keys, now, logSecurityEvent, bus, log }: SessionDeps) {
  let rotations = 0;

  /** Sessions seen live: their user, and until when (the latest access token's expiry, epoch ms). */
  const live = new Map<string, { userId: string; untilMs: number }>();
  /** Moves at each revocation heard: a lookup begun before it may have read a stale row. */
  let generation = 0;
  let fills = 0;

  function forget(sessionIds: string[]): void {
    generation++;
    for (const id of sessionIds) live.delete(id);
  }

  function remember(sessionId: string, userId: string, untilMs: number): void {
    const known = live.get(sessionId);
    live.set(sessionId, { userId, untilMs: Math.max(untilMs, known?.untilMs ?? 0) });
    if (++fills % SWEEP_EVERY !== 0) return;
    const at = now().getTime();
    for (const [id, entry] of live) if (entry.untilMs <= at) live.delete(id);
  }

  // Revocations made by any instance (this one's included) and missed events after a bus outage.
  bus.subscribe((event) => {
    const revocation = sessionsRevoked(event);
    if (revocation) forget(revocation.sessionIds);
    else if (event.type === BUS_RESUMED) forget([...live.keys()]);
  });

  async function issue(userId: string, email: string, sessionId: string, refreshToken: string, at: Date): Promise<IssuedSession> {
    const accessToken = await signAccessToken(keys, { userId, email, sessionId }, at);
    return { userId, sessionId, accessToken, refreshToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
  }

  /** Drops expired tokens, then sessions left without any (revoked ones included). */
  async function purge(at: Date): Promise<void> {
    const cutoff = sql`${at.toISOString()}::timestamptz`;
    await db.delete(refreshTokens).where(sql`${refreshTokens.expiresAt} < ${cutoff}`);
    await db.delete(authSessions).where(sql`${authSessions.createdAt} < ${cutoff} - interval '1 day'
      and not exists (select 1 from refresh_tokens where family_id = ${authSessions.id})`);
  }

  /**
   * Tells every instance these sessions ended. A bus failure must not fail the sign-out or the
   * password change: the sockets then keep their identity until their token expires (≤ 15 min).
   */
  async function announce(rows: Array<{ id: string; userId: string }>): Promise<void> {
    if (rows.length === 0) return;
    forget(rows.map((r) => r.id)); // this instance at once, without waiting for the bus's echo
    await publishSessionsRevoked(bus, rows[0].userId, rows.map((r) => r.id))
      .catch((err) => log.error({ err }, 'session revocation not announced on the bus'));
  }

  /** A refresh token by its raw value, with the state of its session (family); undefined if unknown. */
  async function findRefreshToken(raw: string) {
    const rows = await db
      .select({
        id: refreshTokens.id,
        userId: refreshTokens.userId,
        sessionId: refreshTokens.familyId,
        kind: authSessions.kind,
        rotatedAt: refreshTokens.rotatedAt,
        expiresAt: refreshTokens.expiresAt,
        revokedAt: authSessions.revokedAt,
      })
      .from(refreshTokens)
      .innerJoin(authSessions, eq(authSessions.id, refreshTokens.familyId))
      .where(eq(refreshTokens.tokenHash, hashToken(raw)))
      .limit(1);
    return rows.at(0);
  }

  async function revoke(sessionId: string): Promise<void> {
    const rows = await db.update(authSessions).set({ revokedAt: now() })
      .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)))
      .returning({ id: authSessions.id, userId: authSessions.userId });
    await announce(rows);
  }

  /**
   * Reuse detection, wherever a refresh token is accepted (refresh, reset, sign-out): a token
   * exchanged more than the grace window ago means it was copied, so its session is revoked.
   * True when that happened.
   */
  async function revokeIfReused(
    row: { userId: string; sessionId: string; rotatedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
    at: Date,
    ip: string | null,
  ): Promise<boolean> {
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
  }

  return {
    /** Opens a session: a new family with its first refresh token. */
    async start(user: { id: string; email: string }, kind: SessionKind): Promise<IssuedSession> {
      const at = now();
      const [session] = await db.insert(authSessions).values({ userId: user.id, kind, createdAt: at }).returning({ id: authSessions.id });
      const refreshToken = randomToken();
      await db.insert(refreshTokens).values({
        userId: user.id,
        familyId: session.id,
        tokenHash: hashToken(refreshToken),
        expiresAt: new Date(at.getTime() + REFRESH_TOKEN_TTL_MS),
        createdAt: at,
      });
      return issue(user.id, user.email, session.id, refreshToken, at);
    },

    /** Exchanges a refresh token for a new access token and its successor (see the header). */
    async rotate(raw: string, email: (userId: string) => Promise<string | null>, ip: string | null): Promise<RotateResult> {
      const at = now();
      const row = await findRefreshToken(raw);
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.revokedAt) return { ok: false, reason: 'revoked', userId: row.userId };
      if (row.expiresAt.getTime() <= at.getTime()) return { ok: false, reason: 'expired', userId: row.userId };
      if (await revokeIfReused(row, at, ip)) return { ok: false, reason: 'reused', userId: row.userId };
      const address = await email(row.userId);
      if (!address) return { ok: false, reason: 'unknown' };

      const successor = successorToken(keys, raw);
      const successorHash = hashToken(successor);
      await db.insert(refreshTokens).values({
        userId: row.userId,
        familyId: row.sessionId,
        tokenHash: successorHash,
        expiresAt: new Date(at.getTime() + REFRESH_TOKEN_TTL_MS),
        createdAt: at,
      }).onConflictDoNothing({ target: refreshTokens.tokenHash });
      // coalesce: the first exchange's time starts the grace window; later ones keep it.
      await db.update(refreshTokens).set({
        rotatedAt: sql`coalesce(${refreshTokens.rotatedAt}, ${at.toISOString()}::timestamptz)`,
        replacedBy: sql`coalesce(${refreshTokens.replacedBy}, (select id from refresh_tokens where token_hash = ${successorHash}))`,
      }).where(eq(refreshTokens.id, row.id));

      if (++rotations % PURGE_EVERY === 0) purge(at).catch(() => {});
      return { ok: true, session: await issue(row.userId, address, row.sessionId, successor, at) };
    },

    /**
     * The session a refresh token belongs to. `live`: neither revoked nor expired; `current`:
     * the token was not exchanged yet (it is the newest of its family). A reused token revokes
     * its session, as a refresh does.
     */
    async sessionOfRefreshToken(raw: string, ip: string | null): Promise<{ sessionId: string; userId: string; kind: string; live: boolean; current: boolean } | null> {
      const row = await findRefreshToken(raw);
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
     * Uses up a recovery session's current refresh token, in one statement: of any number of
     * concurrent calls with the same tokens exactly one gets true (the others find the token
     * already marked as exchanged). `executor`: the caller's transaction, so the password
     * change and the consumption commit together.
     */
    async consumeRecovery(executor: Db, sessionId: string, raw: string): Promise<boolean> {
      const at = sql`${now().toISOString()}::timestamptz`;
      const rows = await executor.update(refreshTokens).set({ rotatedAt: sql`${at}` })
        .where(and(
          eq(refreshTokens.tokenHash, hashToken(raw)),
          eq(refreshTokens.familyId, sessionId),
          isNull(refreshTokens.rotatedAt),
          sql`${refreshTokens.expiresAt} > ${at}`,
          sql`exists (select 1 from auth_sessions s where s.id = ${sessionId} and s.kind = 'recovery' and s.revoked_at is null)`,
        ))
        .returning({ id: refreshTokens.id });
      return rows.length === 1;
    },

    revoke,
    purge,

    /** Ends every session of a user but `except` (password change, reset). */
    async revokeAllOf(userId: string, except?: string): Promise<void> {
      const where = [eq(authSessions.userId, userId), isNull(authSessions.revokedAt)];
      if (except) where.push(ne(authSessions.id, except));
      const rows = await db.update(authSessions).set({ revokedAt: now() }).where(and(...where))
        .returning({ id: authSessions.id, userId: authSessions.userId });
      await announce(rows);
    },

    /**
     * Who an access token belongs to: a genuine unexpired JWT whose session is not revoked.
     * The session lookup is one primary-key read, made once per session and token life (see
     * the header); the revocations heard on the bus are what make sign-out and a password
     * change end other devices' access at once rather than after up to 15 minutes.
     */
    async identify(accessToken: string, options: { allowExpired?: boolean } = {}): Promise<Identity | null> {
      const claims = await verifyAccessToken(keys, accessToken, now(), options);
      if (!claims) return null;
      const known = live.get(claims.sessionId);
      if (known && known.untilMs > now().getTime()) return known.userId === claims.userId ? claims : null;
      const began = generation;
      const [session] = await db
        .select({ userId: authSessions.userId, revokedAt: authSessions.revokedAt })
        .from(authSessions)
        .where(eq(authSessions.id, claims.sessionId))
        .limit(1);
      if (!session || session.revokedAt || session.userId !== claims.userId) return null;
      if (began === generation) remember(claims.sessionId, claims.userId, claims.expiresAtMs);
      return claims;
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
