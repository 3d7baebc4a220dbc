/**
 * Staff set a member's tier: `PUT /api/staff/users/:id/tier { tier }`, for
 * super_admin and admin only (the roles that manage users). Written to the security log.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { setTierResponseSchema, setTierSchema, userIdParamsSchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { requireRole } from '../admin/access.ts';
import { setTier } from './service.ts';

export default async function tiersRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;

  app.put(
    '/api/staff/users/:id/tier',
    {
      config: { write: 'staff' },
      onRequest: app.authenticate,
      schema: { params: userIdParamsSchema, body: setTierSchema, response: { 200: setTierResponseSchema } },
    },
    async (request) => {
      const { userId } = await requireRole(ctx, request, 'setTier');
      const { id } = request.params;
      const { tier } = request.body;
      if (!(await setTier(db, id, tier))) throw notFound('profile_not_found');
      await ctx.logSecurityEvent({
        userId,
        eventType: 'tier_set',
        description: `Niveau « ${tier} » attribué au membre ${id}`,
        severity: 'low',
        ip: request.ip,
        targetId: id,
        reason: tier,
      });
      return { userId: id, tier };
    },
  );
}
