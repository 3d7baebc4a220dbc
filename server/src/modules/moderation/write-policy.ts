/**
 * Who may write what: every write route of the API declares its kind (`config: { write: 'comment' }`)
 * and this table alone decides, before the route runs, whether a suspended account, a banned
 * one, or one that has not accepted the terms of use in force may do it. Reading is never
 * judged here. A route test lists the write routes and fails on one that declares no kind.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { termsAt } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { fail, type AppError } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { frenchDateTime } from './restrictions.ts';

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

/** The 403 the account gets for this kind of write at `now`, or null when it may write. */
export function writeRefusal(kind: WriteKind, account: WriterAccount, now: Date): AppError | null {
  const { whileSuspended, whileBanned, needsTerms } = WRITE_RULES[kind];
  if (account.bannedAt && !whileBanned) return fail(403, 'account_banned');
  if (account.suspendedUntil && account.suspendedUntil > now && !whileSuspended) {
    return fail(403, 'account_suspended', { date: frenchDateTime(account.suspendedUntil) });
  }
  if (needsTerms && account.termsVersion !== termsAt(now).current.version) return fail(403, 'terms_not_accepted');
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

/** The writer's suspension, ban and accepted terms, as writeRefusal reads them. */
export async function readWriter(db: Db, userId: string): Promise<WriterAccount | undefined> {
  const [row] = await db
    .select({ suspendedUntil: users.suspendedUntil, bannedAt: users.bannedAt, termsVersion: users.termsVersion })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/**
 * Adds the check to every route declaring `config.write`, after its own onRequest hooks (the
 * sign-in), so a refused write is answered before its body is validated or its rate counted.
 * Must run before the routes are registered (an onRoute hook only sees routes added after it).
 */
export function installWritePolicy(app: FastifyInstance, db: Db, now: () => Date): void {
  app.addHook('onRoute', (route) => {
    const kind = route.config?.write;
    if (!kind || WRITE_RULES[kind].inStatement) return;
    const check: onRequestHookHandler = async (request: FastifyRequest) => {
      const { userId } = requireUser(request);
      const account = await readWriter(db, userId);
      const refusal = account ? writeRefusal(kind, account, now()) : null;
      if (refusal) throw refusal;
    };
    const own =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...own, check];
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The kind of write the route makes (write-policy.ts); none for reads. */
    write?: WriteKind;
  }
}
