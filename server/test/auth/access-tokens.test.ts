/**
 * Access tokens: a token once verified is remembered (a client sends the same token
 * with every request), yet what a caller gets never differs from a fresh verification: an
 * expired, tampered or foreign-key token is refused whether or not its twin was seen before.
 */
import { describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  deriveKeys,
  signAccessToken,
  verifyAccessToken,
} from '../../src/modules/auth/tokens.ts';

const claims = {
  userId: '7d0c9d8e-3c55-4c3e-9a53-3f0f1a7c2b11',
  email: 'lea@exemple.fr',
  sessionId: '0b6f3a4e-8a8f-4a27-9d0e-2a3b4c5d6e7f',
};
const issuedAt = new Date('2026-11-25T08:00:00Z');
const later = (seconds: number) => new Date(issuedAt.getTime() + seconds * 1000);

describe('access tokens', () => {
  it('accepts a genuine token on every request until its expiry, then refuses it', async () => {
    const keys = deriveKeys(Buffer.alloc(32, 1));
    const token = await signAccessToken(keys, claims, issuedAt);
    const first = await verifyAccessToken(keys, token, later(1));
    expect(first).toMatchObject(claims);
    expect(await verifyAccessToken(keys, token, later(60))).toEqual(first);
    expect(await verifyAccessToken(keys, token, later(ACCESS_TOKEN_TTL_SECONDS))).toBeNull();
    expect(await verifyAccessToken(keys, token, later(ACCESS_TOKEN_TTL_SECONDS + 3600))).toBeNull();
  });

  it('refuses a token accepted under one key when checked under another', async () => {
    const ours = deriveKeys(Buffer.alloc(32, 2));
    const theirs = deriveKeys(Buffer.alloc(32, 3));
    const token = await signAccessToken(ours, claims, issuedAt);
    expect(await verifyAccessToken(ours, token, later(1))).not.toBeNull();
    expect(await verifyAccessToken(theirs, token, later(2))).toBeNull();
  });

  it('refuses a token whose payload or signature was altered after the genuine one was accepted', async () => {
    const keys = deriveKeys(Buffer.alloc(32, 4));
    const token = await signAccessToken(keys, claims, issuedAt);
    expect(await verifyAccessToken(keys, token, later(1))).not.toBeNull();
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: 'someone-else' }),
    ).toString('base64url');
    expect(await verifyAccessToken(keys, `${header}.${forged}.${signature}`, later(2))).toBeNull();
    // A character in the middle: the last one carries padding bits a decoder may ignore.
    const flipped = signature!.slice(0, 10) + (signature![10] === 'A' ? 'B' : 'A') + signature!.slice(11);
    expect(await verifyAccessToken(keys, `${header}.${payload}.${flipped}`, later(2))).toBeNull();
  });

  it('still reads an expired token where expiry is allowed (the reset-password screen)', async () => {
    const keys = deriveKeys(Buffer.alloc(32, 5));
    const token = await signAccessToken(keys, claims, issuedAt);
    expect(await verifyAccessToken(keys, token, later(1))).not.toBeNull();
    expect(
      await verifyAccessToken(keys, token, later(ACCESS_TOKEN_TTL_SECONDS + 60), { allowExpired: true }),
    ).toMatchObject(claims);
    expect(await verifyAccessToken(keys, token, later(ACCESS_TOKEN_TTL_SECONDS + 60))).toBeNull();
  });

  it('keeps answering correctly once more tokens were seen than it remembers', async () => {
    const keys = deriveKeys(Buffer.alloc(32, 6));
    const tokens = await Promise.all(
      Array.from({ length: 10_050 }, (_, i) => signAccessToken(keys, { ...claims, sessionId: `s-${i}` }, issuedAt)),
    );
    for (const token of tokens) await verifyAccessToken(keys, token, later(1));
    expect(await verifyAccessToken(keys, tokens[0]!, later(2))).toMatchObject({ sessionId: 's-0' });
    expect(await verifyAccessToken(keys, tokens.at(-1)!, later(ACCESS_TOKEN_TTL_SECONDS + 1))).toBeNull();
  }, 60_000);
});
