/** The preparation of one requested archive: built, stored as ready for 7 days and announced by e-mail, or marked failed. */
import { DATA_EXPORT_TTL_MS } from '@moodmap/core';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { dataExports, profiles, users } from '../../db/schema.ts';
import { buildArchive } from './export-archive.ts';
import { exportReadyMail } from './export-mail.ts';

async function announce(ctx: AppContext, userId: string, expiresAt: Date) {
  const [member] = await ctx.database.db
    .select({ email: users.email, username: profiles.username })
    .from(users)
    .innerJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  if (member)
    await ctx.mailer.send(exportReadyMail(member.email, member.username, expiresAt, `${ctx.config.publicUrl}/profile`));
}

/** Only the request it was started for is completed: a newer one (after a loss) keeps its own. */
export async function prepareArchive(
  ctx: AppContext,
  log: FastifyBaseLogger,
  userId: string,
  requestedAt: Date,
): Promise<void> {
  const { db } = ctx.database;
  const mine = and(
    eq(dataExports.userId, userId),
    eq(dataExports.status, 'pending'),
    eq(dataExports.requestedAt, requestedAt),
  );
  try {
    const archive = await buildArchive(db, ctx.storage, userId, ctx.now());
    const readyAt = ctx.now();
    const expiresAt = new Date(readyAt.getTime() + DATA_EXPORT_TTL_MS);
    const done = await db
      .update(dataExports)
      .set({ status: 'ready', archive, sizeBytes: archive.length, readyAt, expiresAt })
      .where(mine)
      .returning({ userId: dataExports.userId });
    if (done.length > 0)
      await announce(ctx, userId, expiresAt).catch((error) =>
        log.warn({ err: error, userId }, 'data archive mail failed'),
      );
  } catch (error) {
    log.error({ err: error, userId }, 'data archive failed');
    await db
      .update(dataExports)
      .set({ status: 'failed', archive: null })
      .where(mine)
      .catch(() => {});
  }
}
