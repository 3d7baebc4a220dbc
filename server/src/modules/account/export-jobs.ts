/**
 * The data archive's life: one request per member a day (and never two at once), prepared in
 * the background after the request has been answered, announced by e-mail, downloadable for
 * 7 days, then marked expired and its bytes dropped. Every rule of the feature is here.
 */
import { DATA_EXPORT_EVERY_MS, DATA_EXPORT_TTL_MS, HOUR, SECOND, t, type DataExportStatus } from '@moodmap/core';
import { and, eq, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { dataExports, profiles, users } from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { buildArchive } from './export-archive.ts';
import { exportReadyMail } from './export-mail.ts';

/** A preparation still pending after this was lost (the process stopped): a new request may start. */
const STALE_PENDING_MS = HOUR;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export interface ExportJobs {
  /** Records the request and starts the preparation; throws the 409 or the 429. */
  request(userId: string): Promise<DataExportStatus>;
  status(userId: string): Promise<DataExportStatus>;
  /** The ready archive's bytes; throws the 404 when there is none or it expired. */
  archive(userId: string): Promise<Buffer>;
  /** Marks every archive past its 7 days expired and drops its bytes. */
  expireDue(): Promise<void>;
  /** Waits for the preparations under way (closing, tests). */
  drain(): Promise<void>;
}

export function createExportJobs(ctx: AppContext, log: FastifyBaseLogger): ExportJobs {
  const { db } = ctx.database;
  const running = new Set<Promise<void>>();

  const expire = (condition = sql`true`) => db.update(dataExports)
    .set({ status: 'expired', archive: null })
    .where(and(eq(dataExports.status, 'ready'), lte(dataExports.expiresAt, ctx.now()), condition));

  async function read(userId: string) {
    await expire(eq(dataExports.userId, userId));
    const [row] = await db.select({
      status: dataExports.status, requestedAt: dataExports.requestedAt, readyAt: dataExports.readyAt,
      expiresAt: dataExports.expiresAt, sizeBytes: dataExports.sizeBytes,
    }).from(dataExports).where(eq(dataExports.userId, userId));
    return row ?? null;
  }

  function statusOf(row: Awaited<ReturnType<typeof read>>): DataExportStatus {
    if (!row) return { status: 'none', requestedAt: null, readyAt: null, expiresAt: null, sizeBytes: null, nextRequestAt: null };
    const next = new Date(row.requestedAt.getTime() + DATA_EXPORT_EVERY_MS);
    const waiting = row.status !== 'failed' && next > ctx.now();
    return {
      status: row.status,
      requestedAt: iso(row.requestedAt),
      readyAt: iso(row.readyAt),
      expiresAt: iso(row.expiresAt),
      sizeBytes: row.sizeBytes,
      nextRequestAt: waiting ? next.toISOString() : null,
    };
  }

  async function announce(userId: string, expiresAt: Date) {
    const [member] = await db.select({ email: users.email, username: profiles.username })
      .from(users).innerJoin(profiles, eq(profiles.id, users.id)).where(eq(users.id, userId));
    if (member) await ctx.mailer.send(exportReadyMail(member.email, member.username, expiresAt, `${ctx.config.publicUrl}/profile`));
  }

  async function prepare(userId: string, requestedAt: Date) {
    const mine = and(eq(dataExports.userId, userId), eq(dataExports.status, 'pending'), eq(dataExports.requestedAt, requestedAt));
    try {
      const archive = await buildArchive(db, ctx.storage, userId, ctx.now());
      const readyAt = ctx.now();
      const expiresAt = new Date(readyAt.getTime() + DATA_EXPORT_TTL_MS);
      const done = await db.update(dataExports)
        .set({ status: 'ready', archive, sizeBytes: archive.length, readyAt, expiresAt })
        .where(mine).returning({ userId: dataExports.userId });
      if (done.length > 0) await announce(userId, expiresAt).catch((error) => log.warn({ err: error, userId }, 'data archive mail failed'));
    } catch (error) {
      log.error({ err: error, userId }, 'data archive failed');
      await db.update(dataExports).set({ status: 'failed', archive: null }).where(mine).catch(() => {});
    }
  }

  function start(userId: string, requestedAt: Date) {
    // After the answer: the request never waits on the archive.
    const job = new Promise<void>((resolve) => setImmediate(resolve)).then(() => prepare(userId, requestedAt));
    running.add(job);
    void job.finally(() => running.delete(job));
  }

  return {
    async request(userId) {
      const now = ctx.now();
      const claimed = await db.insert(dataExports).values({ userId, status: 'pending', requestedAt: now })
        .onConflictDoUpdate({
          target: dataExports.userId,
          set: { status: 'pending', requestedAt: now, readyAt: null, expiresAt: null, archive: null, sizeBytes: null },
          setWhere: or(
            eq(dataExports.status, 'failed'),
            and(eq(dataExports.status, 'pending'), lt(dataExports.requestedAt, new Date(now.getTime() - STALE_PENDING_MS))),
            and(ne(dataExports.status, 'pending'), lte(dataExports.requestedAt, new Date(now.getTime() - DATA_EXPORT_EVERY_MS))),
          ),
        })
        .returning({ userId: dataExports.userId });
      const row = await read(userId);
      if (claimed.length === 0 && row) {
        if (row.status === 'pending') throw conflict('export_pending');
        const seconds = Math.max(1, Math.ceil((row.requestedAt.getTime() + DATA_EXPORT_EVERY_MS - now.getTime()) / SECOND));
        throw new AppError(429, 'export_rate_limited', t('export_rate_limited', { hours: Math.ceil(seconds / (HOUR / SECOND)) }), { 'retry-after': String(seconds) });
      }
      start(userId, now);
      return statusOf(row);
    },
    async status(userId) {
      return statusOf(await read(userId));
    },
    async archive(userId) {
      const row = await read(userId);
      if (row?.status === 'expired') throw notFound('export_expired');
      if (row?.status !== 'ready') throw notFound('export_not_found');
      const [stored] = await db.select({ archive: dataExports.archive }).from(dataExports)
        .where(and(eq(dataExports.userId, userId), eq(dataExports.status, 'ready')));
      if (!stored?.archive) throw notFound('export_not_found');
      return stored.archive;
    },
    async expireDue() {
      await expire();
    },
    async drain() {
      await Promise.allSettled([...running]);
    },
  };
}
