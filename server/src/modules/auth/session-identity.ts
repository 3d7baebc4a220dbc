/**
 * Who an access token belongs to: a genuine unexpired JWT whose session is not revoked.
 * The session lookup is one primary-key read, made once per session and token life
 * (session-memory.ts); the revocations heard on the bus are what make sign-out and a password
 * change end other devices' access at once rather than after up to 15 minutes.
 */
import type { SessionMemory } from './session-memory.ts';
import type { Identity, SessionDeps } from './session-model.ts';
import { findSession } from './session-rows.ts';
import { verifyAccessToken } from './tokens.ts';

export type Identify = (accessToken: string, options?: { allowExpired?: boolean }) => Promise<Identity | null>;

export function sessionIdentifier({ db, keys, now }: SessionDeps, memory: SessionMemory): Identify {
  return async (accessToken, options = {}) => {
    const claims = await verifyAccessToken(keys, accessToken, now(), options);
    if (!claims) return null;
    const known = memory.liveUser(claims.sessionId);
    if (known !== undefined) return known === claims.userId ? claims : null;
    const began = memory.generation();
    const session = await findSession(db, claims.sessionId);
    if (!session || session.revokedAt || session.userId !== claims.userId) return null;
    if (began === memory.generation()) memory.remember(claims.sessionId, claims.userId, claims.expiresAtMs);
    return claims;
  };
}
