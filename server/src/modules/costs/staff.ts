/** The role check of the launch routes: the caller's staff role among `allowed`, else a logged 403. */
import type { FastifyRequest } from 'fastify';
import type { StaffRole } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { getRole } from '../auth/users.ts';

export async function requireStaffRole(ctx: AppContext, request: FastifyRequest, allowed: readonly StaffRole[], refusal: string): Promise<string> {
  const { userId } = requireUser(request);
  const role = await getRole(ctx.database.db, userId);
  if (!allowed.includes(role)) {
    await ctx.logSecurityEvent({ userId, eventType: 'permission_denied', description: refusal, severity: 'medium', ip: request.ip });
    throw forbidden();
  }
  return userId;
}
