/** Health and public client configuration. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clientConfigSchema, healthResponseSchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { basemapArchiveUrl } from '../geo/pmtiles-routes.ts';

export default async function systemRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/health',
    { schema: { response: { 200: healthResponseSchema, 503: healthResponseSchema } } },
    async (_request, reply) => {
      const up = await ctx.database.ping();
      return reply
        .status(up ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({
          status: up ? 'ok' : 'degraded',
          database: { engine: ctx.database.engine, reachable: up },
        });
    },
  );

  // What the browser needs before it can draw anything: basemap styles. The admin address is
  // never published: the caller learns only whether they are the admin.
  app.get(
    '/api/config',
    { onRequest: app.authenticateOptional, schema: { response: { 200: clientConfigSchema } } },
    async (request, reply) => {
      const { adminEmail } = ctx.config;
      const isAdmin = Boolean(adminEmail && request.auth && request.auth.email.toLowerCase() === adminEmail);
      // The answer depends on the caller: private to them, never shared by a cache.
      return reply.headers({ 'cache-control': 'private, no-cache', vary: 'Authorization' }).send({
        mapStyleUrl: ctx.config.mapStyleUrl ?? null,
        mapStyleUrlDark: ctx.config.mapStyleUrlDark ?? null,
        mapPmtilesUrl: basemapArchiveUrl(ctx.config),
        isAdmin,
      });
    },
  );
}
