/**
 * 'Télécharger mes données' (access and portability): `POST /api/account/export` asks for the
 * archive, `GET /api/account/export` tells its state, `GET /api/account/export/download` gives
 * the ZIP to its owner, signed in, for 7 days. The rules are in export-jobs.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dataExportStatusSchema, HOUR } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/guard.ts';
import { createExportJobs } from './export-jobs.ts';

/** How often archives past their 7 days lose their bytes (reads expire them at once anyway). */
const EXPIRE_EVERY_MS = HOUR;

export default async function exportRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const jobs = createExportJobs(ctx, app.log);

  app.post(
    '/api/account/export',
    {
      config: { write: 'export' },
      onRequest: app.authenticate,
      schema: { response: { 202: dataExportStatusSchema } },
    },
    async (request, reply) => {
      const status = await jobs.request(requireUser(request).userId);
      return reply.status(202).header('cache-control', 'no-store').send(status);
    },
  );

  app.get(
    '/api/account/export',
    { onRequest: app.authenticate, schema: { response: { 200: dataExportStatusSchema } } },
    async (request, reply) => {
      return reply.header('cache-control', 'no-store').send(await jobs.status(requireUser(request).userId));
    },
  );

  app.get('/api/account/export/download', { onRequest: app.authenticate }, async (request, reply) => {
    const archive = await jobs.archive(requireUser(request).userId);
    const day = ctx.now().toISOString().slice(0, 10);
    return reply
      .header('cache-control', 'no-store')
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="moodmap-donnees-${day}.zip"`)
      .send(archive);
  });

  // On the leading instance only; a failure is logged by the leader.
  const stopExpiry = ctx.leader.every('exports.expire', EXPIRE_EVERY_MS, () => jobs.expireDue());
  app.addHook('onClose', async () => {
    await stopExpiry();
    await jobs.drain();
  });
}
