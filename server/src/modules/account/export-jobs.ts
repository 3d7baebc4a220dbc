/**
 * The data archive's life: one request per member a day (and never two at once), prepared in
 * the background after the request has been answered, announced by e-mail, downloadable for
 * 7 days, then marked expired and its bytes dropped. Every rule of the feature is here.
 */
import { DATA_EXPORT_EVERY_MS, HOUR, SECOND, t, type DataExportStatus } from '@moodmap/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { prepareArchive } from './export-prepare.ts';
import { archiveBytes, claimExport, expireArchives, exportStatus, readExport } from './export-rows.ts';

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
  const read = (userId: string) => readExport(db, userId, ctx.now());

  function start(userId: string, requestedAt: Date) {
    // After the answer: the request never waits on the archive.
    const job = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
      prepareArchive(ctx, log, userId, requestedAt),
    );
    running.add(job);
    void job.finally(() => running.delete(job));
  }

  return {
    async request(userId) {
      const now = ctx.now();
      const claimed = await claimExport(db, userId, now);
      const row = await read(userId);
      if (!claimed && row) {
        if (row.status === 'pending') throw conflict('export_pending');
        const seconds = Math.max(
          1,
          Math.ceil((row.requestedAt.getTime() + DATA_EXPORT_EVERY_MS - now.getTime()) / SECOND),
        );
        throw new AppError(
          429,
          'export_rate_limited',
          t('export_rate_limited', { hours: Math.ceil(seconds / (HOUR / SECOND)) }),
          { 'retry-after': String(seconds) },
        );
      }
      start(userId, now);
      return exportStatus(row, ctx.now());
    },
    async status(userId) {
      return exportStatus(await read(userId), ctx.now());
    },
    async archive(userId) {
      const row = await read(userId);
      if (row?.status === 'expired') throw notFound('export_expired');
      if (row?.status !== 'ready') throw notFound('export_not_found');
      const bytes = await archiveBytes(db, userId);
      if (!bytes) throw notFound('export_not_found');
      return bytes;
    },
    async expireDue() {
      await expireArchives(db, ctx.now());
    },
    async drain() {
      await Promise.allSettled([...running]);
    },
  };
}
