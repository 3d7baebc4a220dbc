/** The statements on sessions (auth_sessions) and their refresh tokens (refresh_tokens). */
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authSessions, refreshTokens } from '../../db/schema.ts';
import { REFRESH_TOKEN_TTL_MS, type SessionKind } from './session-model.ts';
import { hashToken } from './tokens.ts';

/** A new session (family) of the user's; its id. */
export async function insertSession(db: Db, userId: string, kind: SessionKind, at: Date): Promise<string> {
  const [session] = await db
    .insert(authSessions)
    .values({ userId, kind, createdAt: at })
    .returning({ id: authSessions.id });
  return session.id;
}

interface NewRefreshToken {
  userId: string;
  sessionId: string;
  hash: string;
  at: Date;
}

const tokenValues = (token: NewRefreshToken) => ({
  userId: token.userId,
  familyId: token.sessionId,
  tokenHash: token.hash,
  expiresAt: new Date(token.at.getTime() + REFRESH_TOKEN_TTL_MS),
  createdAt: token.at,
});

/** A session's first refresh token, stored by its hash. */
export async function insertFirstToken(db: Db, token: NewRefreshToken): Promise<void> {
  await db.insert(refreshTokens).values(tokenValues(token));
}

/** A token's successor; inserting the same one again does nothing, so a repeated rotation yields the same successor. */
export async function insertSuccessor(db: Db, token: NewRefreshToken): Promise<void> {
  await db.insert(refreshTokens).values(tokenValues(token)).onConflictDoNothing({ target: refreshTokens.tokenHash });
}

/** A refresh token by its raw value, with the state of its session (family); undefined if unknown. */
export async function findRefreshToken(db: Db, raw: string) {
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

/** Marks a token exchanged for its successor; coalesce: the first exchange's time starts the grace window, later ones keep it. */
export async function markRotated(db: Db, tokenId: string, successorHash: string, at: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({
      rotatedAt: sql`coalesce(${refreshTokens.rotatedAt}, ${at.toISOString()}::timestamptz)`,
      replacedBy: sql`coalesce(${refreshTokens.replacedBy}, (select id from refresh_tokens where token_hash = ${successorHash}))`,
    })
    .where(eq(refreshTokens.id, tokenId));
}

/** Drops expired tokens, then sessions left without any (revoked ones included). */
export async function purgeExpired(db: Db, at: Date): Promise<void> {
  const cutoff = sql`${at.toISOString()}::timestamptz`;
  await db.delete(refreshTokens).where(sql`${refreshTokens.expiresAt} < ${cutoff}`);
  await db.delete(authSessions).where(sql`${authSessions.createdAt} < ${cutoff} - interval '1 day'
    and not exists (select 1 from refresh_tokens where family_id = ${authSessions.id})`);
}

/**
 * Uses up a recovery session's current refresh token, in one statement: of any number of
 * concurrent calls exactly one gets true (the others find the token already marked as exchanged).
 */
export async function consumeRecoveryToken(executor: Db, sessionId: string, raw: string, now: Date): Promise<boolean> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await executor
    .update(refreshTokens)
    .set({ rotatedAt: sql`${at}` })
    .where(
      and(
        eq(refreshTokens.tokenHash, hashToken(raw)),
        eq(refreshTokens.familyId, sessionId),
        isNull(refreshTokens.rotatedAt),
        sql`${refreshTokens.expiresAt} > ${at}`,
        sql`exists (select 1 from auth_sessions s where s.id = ${sessionId} and s.kind = 'recovery' and s.revoked_at is null)`,
      ),
    )
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

const revokedRows = { id: authSessions.id, userId: authSessions.userId };

/** Revokes a session if it is live; the rows revoked (none or one). */
export async function revokeSession(db: Db, sessionId: string, at: Date) {
  return db
    .update(authSessions)
    .set({ revokedAt: at })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)))
    .returning(revokedRows);
}

/** Revokes every live session of a user but `except`; the rows revoked. */
export async function revokeSessionsOf(db: Db, userId: string, except: string | undefined, at: Date) {
  const where = [eq(authSessions.userId, userId), isNull(authSessions.revokedAt)];
  if (except) where.push(ne(authSessions.id, except));
  return db
    .update(authSessions)
    .set({ revokedAt: at })
    .where(and(...where))
    .returning(revokedRows);
}

/** A session's owner and whether it was revoked; undefined when there is no such session. */
export async function findSession(db: Db, sessionId: string) {
  const [session] = await db
    .select({ userId: authSessions.userId, revokedAt: authSessions.revokedAt })
    .from(authSessions)
    .where(eq(authSessions.id, sessionId))
    .limit(1);
  return session;
}
