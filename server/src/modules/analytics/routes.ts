/**
 * Analytics: `POST /api/analytics/events` takes the web app's events (rate limited
 * per client, malformed ones refused and not stored), `GET /api/stats` gives admin and
 * super_admin the statistics tab's numbers.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { analyticsEventSchema, statsQuerySchema, statsResponseSchema } from '@moodmap/core';
import { ipKey } from '../../adapters/rate-limit/limiter.ts';
import type { AppContext } from '../../context.ts';
import { requireRole } from '../admin/access.ts';
import { readStats } from './stats.ts';

export default async function analyticsRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/analytics/events',
    {
      // Counted before validation: a flood of malformed events is limited like a flood of good ones.
      preValidation: async (request) => ctx.limits.consume('analytics_event', ipKey(request.ip), { ip: request.ip }),
      schema: { body: analyticsEventSchema, response: { 202: z.null() } },
    },
    async (request, reply) => {
      await ctx.analytics.record({
        name: request.body.name,
        path: request.body.path,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return reply.status(202).send(null);
    },
  );

  app.get(
    '/api/stats',
    { onRequest: app.authenticate, schema: { querystring: statsQuerySchema, response: { 200: statsResponseSchema } } },
    async (request, reply) => {
      await requireRole(ctx, request, 'readStats');
      return reply
        .header('cache-control', 'no-store')
        .send(await readStats(ctx.database.db, ctx.now(), request.query.days));
    },
  );
}
