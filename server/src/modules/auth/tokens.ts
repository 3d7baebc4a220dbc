/**
 * Token primitives: the access token (JWT HS256 via jose, 15 minutes), random opaque tokens
 * (refresh, confirmation, recovery) stored only as SHA-256 hashes, and the keys derived from
 * the server secret for each purpose.
 */
import { createHash, createHmac, hkdfSync, randomBytes, webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, decodeJwt } from 'jose';

/** Access tokens live 15 minutes, the most a stolen one may serve. */
export const ACCESS_TOKEN_TTL_SECONDS = 900;
const ISSUER = 'moodmap';
const AUDIENCE = 'moodmap:access';

export interface AuthKeys {
  /** HS256 key of access tokens. */
  jwt: Uint8Array;
  /** A256GCM key of the encrypted human-check challenges. */
  challenge: Uint8Array;
  /** HMAC key deriving a refresh token's successor (see sessions.ts). */
  rotation: Buffer;
  /** HMAC key of the appeal links mailed with a statement of reasons (moderation/appeal-token.ts). */
  appeal: Buffer;
  /** HMAC key of the reporter networks stored on post reports (reports/network.ts): no raw address is kept. */
  reportNetwork: Buffer;
}

/** One secret, independent keys per purpose (HKDF), so no token can stand in for another. */
export function deriveKeys(secret: Buffer): AuthKeys {
  const derive = (label: string) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `moodmap ${label}`, 32));
  return {
    jwt: derive('access token'),
    challenge: derive('human check'),
    rotation: derive('refresh rotation'),
    appeal: derive('appeal link'),
    reportNetwork: derive('report network'),
  };
}

/** 256 random bits, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Stored form of an opaque token: a leaked table cannot be replayed. */
export function hashToken(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

/** The successor of a refresh token is a keyed function of it: the same token rotates to the same successor. */
export function successorToken(keys: AuthKeys, raw: string): string {
  return createHmac('sha256', keys.rotation).update(raw).digest('base64url');
}

export interface AccessClaims {
  userId: string;
  email: string;
  sessionId: string;
}

/** What a verified token says, its expiry included (the WebSocket hub ends the identity then). */
export interface VerifiedClaims extends AccessClaims {
  /** Epoch ms of the token's `exp`. */
  expiresAtMs: number;
}

/**
 * The HS256 key as a CryptoKey, imported once per key: given raw bytes, jose imports one on every
 * sign and verify, a visible share of a message send's CPU.
 */
const imported = new WeakMap<Uint8Array, Promise<webcrypto.CryptoKey>>();
function hmacKey(raw: Uint8Array): Promise<webcrypto.CryptoKey> {
  let key = imported.get(raw);
  if (!key) {
    key = webcrypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    imported.set(raw, key);
  }
  return key;
}

export async function signAccessToken(keys: AuthKeys, claims: AccessClaims, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ email: claims.email, sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(await hmacKey(keys.jwt));
}

/**
 * Tokens already verified under a key, by their exact text (signature included), until their
 * expiry: a client sends the same token with every request for 15 minutes, and a WebCrypto
 * verify costs as much CPU as the rest of a message send's auth. Bounded: the oldest
 * entry goes first. Revocation is not decided here (sessions.ts checks the session).
 */
const VERIFIED_MAX = 10_000;
const verifiedByKey = new WeakMap<Uint8Array, Map<string, VerifiedClaims>>();

function verifiedWith(key: Uint8Array): Map<string, VerifiedClaims> {
  let verified = verifiedByKey.get(key);
  if (!verified) {
    verified = new Map();
    verifiedByKey.set(key, verified);
  }
  return verified;
}

function remember(verified: Map<string, VerifiedClaims>, token: string, claims: VerifiedClaims): void {
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  verified.set(token, claims);
}

/**
 * The claims of a genuine, unexpired access token, or null. `allowExpired` still checks the
 * signature (the reset-password screen may be submitted after the 15 minutes; its refresh
 * token then proves the session).
 */
export async function verifyAccessToken(
  keys: AuthKeys,
  token: string,
  now: Date,
  options: { allowExpired?: boolean } = {},
): Promise<VerifiedClaims | null> {
  const known = options.allowExpired ? undefined : verifiedWith(keys.jwt).get(token);
  if (known) return now.getTime() < known.expiresAtMs ? known : null;
  try {
    let at = now;
    if (options.allowExpired) {
      const iat = decodeJwt(token).iat;
      if (typeof iat !== 'number') return null;
      at = new Date(Math.min(now.getTime(), iat * 1000));
    }
    const { payload } = await jwtVerify(token, await hmacKey(keys.jwt), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: at,
    });
    if (
      typeof payload.sub !== 'string' ||
      typeof payload.sid !== 'string' ||
      typeof payload.email !== 'string' ||
      typeof payload.exp !== 'number'
    )
      return null;
    const claims: VerifiedClaims = Object.freeze({
      userId: payload.sub,
      email: payload.email,
      sessionId: payload.sid,
      expiresAtMs: payload.exp * 1000,
    });
    if (!options.allowExpired) remember(verifiedWith(keys.jwt), token, claims);
    return claims;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
