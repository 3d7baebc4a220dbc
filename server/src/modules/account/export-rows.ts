/** The data_exports row of each member: one request at a time, its archive's bytes while ready. */
import { DATA_EXPORT_EVERY_MS, HOUR, type DataExportStatus } from '@moodmap/core';
import { and, eq, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dataExports } from '../../db/schema.ts';

/** A preparation still pending after this was lost (the process stopped): a new request may start. */
const STALE_PENDING_MS = HOUR;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Marks the ready archives past their expiry (those matching `condition`) expired and drops their bytes. */
export const expireArchives = (db: Db, now: Date, condition: SQL = sql`true`) =>
  db
    .update(dataExports)
    .set({ status: 'expired', archive: null })
    .where(and(eq(dataExports.status, 'ready'), lte(dataExports.expiresAt, now), condition));

/** The member's row, past archives expired first; null when they never asked. */
export async function readExport(db: Db, userId: string, now: Date) {
  await expireArchives(db, now, eq(dataExports.userId, userId));
  const [row] = await db
    .select({
      status: dataExports.status,
      requestedAt: dataExports.requestedAt,
      readyAt: dataExports.readyAt,
      expiresAt: dataExports.expiresAt,
      sizeBytes: dataExports.sizeBytes,
    })
    .from(dataExports)
    .where(eq(dataExports.userId, userId));
  return row ?? null;
}

export function exportStatus(row: Awaited<ReturnType<typeof readExport>>, now: Date): DataExportStatus {
  if (!row)
    return { status: 'none', requestedAt: null, readyAt: null, expiresAt: null, sizeBytes: null, nextRequestAt: null };
  const next = new Date(row.requestedAt.getTime() + DATA_EXPORT_EVERY_MS);
  const waiting = row.status !== 'failed' && next > now;
  return {
    status: row.status,
    requestedAt: iso(row.requestedAt),
    readyAt: iso(row.readyAt),
    expiresAt: iso(row.expiresAt),
    sizeBytes: row.sizeBytes,
    nextRequestAt: waiting ? next.toISOString() : null,
  };
}

/**
 * Records a new request, in one statement so two at once cannot both start: allowed when there
 * is none, after a failure, after a lost preparation, or a day after the last. True when recorded.
 */
export async function claimExport(db: Db, userId: string, now: Date): Promise<boolean> {
  const claimed = await db
    .insert(dataExports)
    .values({ userId, status: 'pending', requestedAt: now })
    .onConflictDoUpdate({
      target: dataExports.userId,
      set: { status: 'pending', requestedAt: now, readyAt: null, expiresAt: null, archive: null, sizeBytes: null },
      setWhere: or(
        eq(dataExports.status, 'failed'),
        and(eq(dataExports.status, 'pending'), lt(dataExports.requestedAt, new Date(now.getTime() - STALE_PENDING_MS))),
        and(
          ne(dataExports.status, 'pending'),
          lte(dataExports.requestedAt, new Date(now.getTime() - DATA_EXPORT_EVERY_MS)),
        ),
      ),
    })
    .returning({ userId: dataExports.userId });
  return claimed.length > 0;
}

/** The ready archive's bytes, if any. */
export async function archiveBytes(db: Db, userId: string): Promise<Buffer | null> {
  const [stored] = await db
    .select({ archive: dataExports.archive })
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), eq(dataExports.status, 'ready')));
  return stored?.archive ?? null;
}
