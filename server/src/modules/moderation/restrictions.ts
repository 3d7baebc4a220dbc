/**
 * What a moderator's decision stops (issue 17): a suspended author cannot post, comment or send
 * messages until the end date; a banned one cannot sign in or write at all. The end is compared
 * with the app's clock (ctx.now), so tests move time past it and see the suspension lift.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { fail, type AppError } from '../../errors.ts';

const FR_DATE = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });

/** '24 décembre 2026 à 15:00' (Paris time): how a suspension's end reads in French. */
export function frenchDateTime(date: Date): string {
  return FR_DATE.format(date);
}

export interface Restriction {
  suspendedUntil: Date | null;
  bannedAt: Date | null;
}

/** The 403 a restricted writer gets, or null when they may write at `now`. */
export function restrictionError(row: Restriction | undefined, now: Date): AppError | null {
  if (!row) return null;
  if (row.bannedAt) return fail(403, 'account_banned');
  if (row.suspendedUntil && row.suspendedUntil > now) return fail(403, 'account_suspended', { date: frenchDateTime(row.suspendedUntil) });
  return null;
}

export async function readRestriction(db: Db, userId: string): Promise<Restriction | undefined> {
  const [row] = await db.select({ suspendedUntil: users.suspendedUntil, bannedAt: users.bannedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return row;
}

/** Throws the 403 when `userId` may not post, comment or message now. */
export async function assertCanWrite(db: Db, userId: string, now: Date): Promise<void> {
  const error = restrictionError(await readRestriction(db, userId), now);
  if (error) throw error;
}

/**
 * The same rule inside a statement (a batch of message sends stays one round trip): `userId` and
 * `now` are SQL expressions, so each row of a batch is judged by its own sender and time.
 */
export function mayWriteSql(userId: SQL, now: SQL) {
  return sql`not exists (select 1 from users u where u.id = ${userId}
    and (u.banned_at is not null or u.suspended_until > ${now}))`;
}
