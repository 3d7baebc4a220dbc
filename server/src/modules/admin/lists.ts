/** The admin panel's two lists, keyset-paged newest first, with their filters. */
import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ADMIN_COUNT_MAX, STAFF_ROLES, type AdminUser, type SecurityLogEntry, type StaffRole } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { profiles, securityLogs, staffRoles, users } from '../../db/schema.ts';
import { after, decodeKey, newestFirst, pageOf, stampOf } from './keyset.ts';

export interface Page<T> {
  rows: T[];
  nextCursor: string | null;
  total: number | null;
}

/** How many rows of `table` match `filter`, counted up to ADMIN_COUNT_MAX + 1: no more are read. */
async function boundedCount(db: Db, table: PgTable, filter: SQL | undefined): Promise<number> {
  const limited = db
    .select({ one: sql<number>`1`.as('one') })
    .from(table)
    .where(filter)
    .limit(ADMIN_COUNT_MAX + 1)
    .as('limited');
  return (await db.select({ n: count() }).from(limited))[0]!.n;
}

/** `lower(username) like 'q%'`, the prefix matched by profiles_username_prefix_idx (wildcards escaped). */
function nicknamePrefix(q: string | undefined) {
  if (!q) return undefined;
  const escaped = q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql`lower(${profiles.username}) like ${`${escaped}%`}`;
}

export async function listUsers(
  db: Db,
  options: { cursor?: string; limit: number; q?: string },
): Promise<Page<AdminUser>> {
  const key = decodeKey(options.cursor);
  const filter = nicknamePrefix(options.q);
  const rows = await db
    .select({
      id: profiles.id,
      username: profiles.username,
      createdAt: profiles.createdAt,
      stamp: stampOf(profiles.createdAt),
      role: staffRoles.role,
      suspendedUntil: users.suspendedUntil,
      bannedAt: users.bannedAt,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.id))
    .leftJoin(staffRoles, eq(staffRoles.userId, profiles.id))
    .where(and(filter, after(profiles.createdAt, profiles.id, key)))
    .orderBy(...newestFirst(profiles.createdAt, profiles.id))
    .limit(options.limit + 1);
  const total = key ? null : await boundedCount(db, profiles, filter);
  const { page, nextCursor } = pageOf(rows, options.limit);
  return {
    rows: page.map((r) => ({
      id: r.id,
      username: r.username,
      createdAt: r.createdAt.toISOString(),
      role: STAFF_ROLES.find((role) => role === r.role) ?? ('user' satisfies StaffRole),
      suspendedUntil: r.suspendedUntil?.toISOString() ?? null,
      banned: r.bannedAt !== null,
    })),
    nextCursor,
    total,
  };
}

export async function listSecurityLogs(
  db: Db,
  options: { cursor?: string; limit: number; severity?: string; eventType?: string },
): Promise<Page<SecurityLogEntry>> {
  const key = decodeKey(options.cursor);
  const filter = and(
    options.severity ? eq(securityLogs.severity, options.severity) : undefined,
    options.eventType ? eq(securityLogs.eventType, options.eventType) : undefined,
  );
  const rows = await db
    .select({
      id: securityLogs.id,
      eventType: securityLogs.eventType,
      eventDescription: securityLogs.eventDescription,
      severity: securityLogs.severity,
      createdAt: securityLogs.createdAt,
      stamp: stampOf(securityLogs.createdAt),
      userId: securityLogs.userId,
      targetId: securityLogs.targetId,
      reason: securityLogs.reason,
      occurrences: securityLogs.occurrences,
      lastAt: securityLogs.lastAt,
    })
    .from(securityLogs)
    .where(and(filter, after(securityLogs.createdAt, securityLogs.id, key)))
    .orderBy(...newestFirst(securityLogs.createdAt, securityLogs.id))
    .limit(options.limit + 1);
  const total = key ? null : await boundedCount(db, securityLogs, filter);
  const { page, nextCursor } = pageOf(rows, options.limit);
  return {
    rows: page.map(({ stamp: _stamp, ...r }) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      lastAt: r.lastAt?.toISOString() ?? null,
    })),
    nextCursor,
    total,
  };
}
