/** Health and public client configuration. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export default async function systemRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get('/api/health', async (_request, reply) => {
    const up = await ctx.database.ping();
    return reply.status(up ? 200 : 503).header('cache-control', 'no-store').send({
      status: up ? 'ok' : 'degraded',
      database: { engine: ctx.database.engine, reachable: up },
    });
  });

  // What the browser needs before it can draw anything: basemap styles and the admin address.
  app.get('/api/config', async (_request, reply) => {
    return reply.header('cache-control', 'no-cache').send({
      mapStyleUrl: ctx.config.mapStyleUrl ?? null,
      mapStyleUrlDark: ctx.config.mapStyleUrlDark ?? null,
      adminEmail: ctx.config.adminEmail ?? null,
    });
  });
}
