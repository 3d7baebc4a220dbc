/**
 * Who reaches staff data (docs/product.md, Roles and staff). A route that needs a role:
 *
 *   const { userId, role } = await requireRole(ctx, request, MODERATION_ROLES);
 *
 * A visitor already got the 401 from `app.authenticate`; a signed-in person without the role
 * gets 403 'Accès refusé : permissions insuffisantes' and a 'permission_denied' (high) entry.
 */
import type { FastifyRequest } from 'fastify';
import type { StaffRole } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { getRole } from '../auth/users.ts';

export async function requireRole(ctx: AppContext, request: FastifyRequest, roles: readonly StaffRole[]): Promise<{ userId: string; role: StaffRole }> {
  const { userId } = requireUser(request);
  const role = await getRole(ctx.database.db, userId);
  if (!roles.includes(role)) {
    await ctx.logSecurityEvent({
      userId, ip: request.ip, eventType: 'permission_denied', severity: 'high',
      description: `Accès refusé à ${request.method} ${request.routeOptions.url ?? ''} (rôle : ${role})`,
    });
    throw forbidden();
  }
  return { userId, role };
}
