/**
 * What an account's standing allows: a suspended account, a banned one, one that has not
 * accepted the terms of use in force, one whose e-mail is not confirmed. Every write route of
 * the API declares its kind (`config: { write: 'comment' }`) and this table alone decides,
 * before the route runs (modules/moderation/write-policy.ts installs the check), whether such
 * an account may make it. Reading is never judged here. A route test lists the write routes and
 * fails on one that declares no kind.
 */
import { sql, type SQL } from 'drizzle-orm';
import { termsAt } from '@moodmap/core';
import { appError } from '../errors.ts';
import { frenchDateTime } from '../modules/moderation/restrictions.ts';
import type { Verdict } from './actor.ts';

interface WriteRule {
  whileSuspended: boolean;
  whileBanned: boolean;
  /** Puts something in front of other members (or pays): only under the terms in force. */
  needsTerms: boolean;
  /** Judged inside the route's own statement (writeAllowedSql) rather than by a read before it. */
  inStatement?: boolean;
}

const rule = (whileSuspended: boolean, needsTerms: boolean, whileBanned = false): WriteRule => ({
  whileSuspended,
  whileBanned,
  needsTerms,
});

export const WRITE_RULES = {
  /** A post, and the image or voice uploaded for it. */
  publish: rule(false, true),
  /** A comment, new or edited. */
  comment: rule(false, true),
  like: rule(false, true),
  /** A new conversation. */
  message: rule(false, true),
  /** A message: the send's one statement judges it, so a send waits on no extra read. */
  send: { ...rule(false, true), inStatement: true },
  /** Nickname, bio, photo. */
  profile: rule(false, true),
  purchase: rule(false, true),
  /** Deleting one's own post, comment or photo. */
  remove: rule(true, false),
  report: rule(true, false),
  block: rule(true, false),
  /** Marking conversations or notices read. */
  read: rule(true, false),
  push: rule(true, false),
  appeal: rule(true, false, true),
  /** Asking for one's data archive: a right whatever the account's standing. */
  export: rule(true, false, true),
  /** A moderator's or an admin's action. */
  staff: rule(false, false),
} satisfies Record<string, WriteRule>;

export type WriteKind = keyof typeof WRITE_RULES;

export interface WriterAccount {
  suspendedUntil: Date | null;
  bannedAt: Date | null;
  termsVersion: string | null;
}

/** The end of the account's suspension when it is still running at `now`, else null. */
export function runningSuspension(account: Pick<WriterAccount, 'suspendedUntil'>, now: Date): Date | null {
  return account.suspendedUntil && account.suspendedUntil > now ? account.suspendedUntil : null;
}

/** Whether the account accepted the terms of use in force at `now`. */
export function acceptedTermsInForce(termsVersion: string | null, now: Date): boolean {
  return termsVersion === termsAt(now).current.version;
}

/** The 403 the account gets for this kind of write at `now`, or null when it may write. */
export function writeRefusal(kind: WriteKind, account: WriterAccount, now: Date): Verdict {
  const { whileSuspended, whileBanned, needsTerms } = WRITE_RULES[kind];
  if (account.bannedAt && !whileBanned) return appError(403, 'account_banned');
  const suspendedUntil = runningSuspension(account, now);
  if (suspendedUntil && !whileSuspended)
    return appError(403, 'account_suspended', { date: frenchDateTime(suspendedUntil) });
  if (needsTerms && !acceptedTermsInForce(account.termsVersion, now)) return appError(403, 'terms_not_accepted');
  return null;
}

/**
 * The same rule inside a statement: `userId`, `now` and `termsVersion` (the version in force at
 * `now`) are SQL expressions, so each row of a batch is judged by its own writer and time.
 */
export function writeAllowedSql(kind: WriteKind, userId: SQL, now: SQL, termsVersion: SQL): SQL {
  const { whileSuspended, whileBanned, needsTerms } = WRITE_RULES[kind];
  const refused = [
    whileBanned ? null : sql`u.banned_at is not null`,
    whileSuspended ? null : sql`u.suspended_until > ${now}`,
    needsTerms ? sql`u.terms_version is distinct from ${termsVersion}` : null,
  ].filter((condition) => condition !== null);
  if (refused.length === 0) return sql`true`;
  return sql`not exists (select 1 from users u where u.id = ${userId} and (${sql.join(refused, sql` or `)}))`;
}

/**
 * Signing in, once the password is right: only an opened account, and never a banned one (a
 * moderator's ban closes the account; a suspension only stops writing).
 */
export function maySignIn(account: { emailConfirmedAt: Date | null; bannedAt: Date | null }): Verdict {
  if (!account.emailConfirmedAt) return appError(403, 'email_not_confirmed');
  if (account.bannedAt) return appError(403, 'account_banned');
  return null;
}
