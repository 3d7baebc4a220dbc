/**
 * Cost monitor and emergency mode over HTTP: the public emergency status (the web
 * app's banner), today's counters and estimated cost for admin and super_admin, and the
 * super_admin's switch. Requests this server answers are not counted: only what a paid
 * provider bills (monitor.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { costsResponseSchema, emergencyStatusResponseSchema, setEmergencySchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { requireRole } from '../admin/access.ts';

export default async function costsRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/emergency',
    { schema: { response: { 200: emergencyStatusResponseSchema } } },
    async (_request, reply) => {
      const { active, until } = await ctx.costs.emergency();
      return reply.header('cache-control', 'no-cache').send({ active, until });
    },
  );

  app.get(
    '/api/costs',
    { onRequest: app.authenticate, schema: { response: { 200: costsResponseSchema } } },
    async (request, reply) => {
      await requireRole(ctx, request, 'readCosts');
      return reply.header('cache-control', 'no-store').send(await ctx.costs.report());
    },
  );

  app.put(
    '/api/costs/emergency',
    {
      config: { write: 'staff' },
      onRequest: app.authenticate,
      schema: { body: setEmergencySchema, response: { 200: emergencyStatusResponseSchema } },
    },
    async (request) => {
      const { userId } = await requireRole(ctx, request, 'switchEmergency');
      const { active, until } = await ctx.costs.setEmergency(request.body.active, userId);
      return { active, until };
    },
  );
}
