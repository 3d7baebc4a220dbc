/**
 * Single-use e-mail tokens (confirmation, recovery): random, stored as SHA-256 hashes, expiring.
 * Redemption is one conditional UPDATE, so of any number of concurrent clicks exactly one wins.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { DAY, HOUR } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { authTokens } from '../../db/schema.ts';
import { hashToken, randomToken } from './tokens.ts';

export type EmailTokenKind = 'confirm' | 'recovery';

export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenKind, number> = {
  confirm: DAY,
  recovery: HOUR,
};

export async function createEmailToken(db: Db, userId: string, kind: EmailTokenKind, now: Date): Promise<string> {
  const raw = randomToken();
  await db.insert(authTokens).values({
    userId,
    kind,
    tokenHash: hashToken(raw),
    expiresAt: new Date(now.getTime() + EMAIL_TOKEN_TTL_MS[kind]),
    createdAt: now,
  });
  return raw;
}

/** The token's user when it is valid, unused and of this kind — and marks it used; else null. */
export async function redeemEmailToken(db: Db, raw: string, kind: EmailTokenKind, now: Date): Promise<string | null> {
  const [row] = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(authTokens.tokenHash, hashToken(raw)),
        eq(authTokens.kind, kind),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, now),
      ),
    )
    .returning({ userId: authTokens.userId });
  return row?.userId ?? null;
}

/** Spends every outstanding token of a kind (a changed password voids older reset links). */
export async function voidEmailTokens(db: Db, userId: string, kind: EmailTokenKind, now: Date): Promise<void> {
  await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.userId, userId), eq(authTokens.kind, kind), isNull(authTokens.usedAt)));
}

/** Drops tokens expired for a day (called now and then). */
export async function purgeEmailTokens(db: Db, now: Date): Promise<void> {
  await db.delete(authTokens).where(sql`${authTokens.expiresAt} < ${new Date(now.getTime() - DAY)}`);
}
