/**
 * Terms of use (docs/product.md, Rights and terms; a change is announced 30 days ahead): the version in
 * force, the one announced, and what a member accepted (version and time, on the user row).
 */
import { eq } from 'drizzle-orm';
import { termsAt, type TermsStatus } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { badRequest } from '../../errors.ts';
import { acceptedTermsInForce } from '../../policies/standing.ts';

/** The columns a sign-up or an acceptance stores; refuses any version but the one in force. */
export function acceptedTerms(version: string, now: Date): { termsVersion: string; termsAcceptedAt: Date } {
  const { current } = termsAt(now);
  if (version !== current.version) throw badRequest('terms_version_outdated');
  return { termsVersion: current.version, termsAcceptedAt: now };
}

export async function termsStatus(db: Db, now: Date, userId: string | null): Promise<TermsStatus> {
  const { current, upcoming } = termsAt(now);
  let acceptedVersion: string | null = null;
  if (userId) {
    const [row] = await db.select({ version: users.termsVersion }).from(users).where(eq(users.id, userId)).limit(1);
    acceptedVersion = row?.version ?? null;
  }
  return {
    current,
    upcoming,
    acceptedVersion,
    mustAccept: userId !== null && !acceptedTermsInForce(acceptedVersion, now),
  };
}

export async function acceptTerms(
  db: Db,
  now: Date,
  userId: string,
  version: string,
): Promise<{ version: string; acceptedAt: string }> {
  const terms = acceptedTerms(version, now);
  await db.update(users).set(terms).where(eq(users.id, userId));
  return { version: terms.termsVersion, acceptedAt: now.toISOString() };
}
