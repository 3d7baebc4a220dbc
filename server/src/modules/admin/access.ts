/**
 * Who reaches staff data (docs/product.md, Roles and staff). A route that needs a role:
 *
 *   const { userId, role } = await requireRole(ctx, request, MODERATION_ROLES);
 *
 * A visitor already got the 401 from `app.authenticate`; a signed-in person without the role
 * gets 403 'Accès refusé : permissions insuffisantes' and a 'permission_denied' entry: high,
 * naming the route and role, unless the route words its own refusal.
 */
import type { FastifyRequest } from 'fastify';
import type { StaffRole } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { getRole } from '../auth/users.ts';
import type { Severity } from '../security/log.ts';

/** The security log's entry for a refusal, when the route words it itself. */
export interface Refusal {
  description: string;
  severity: Severity;
}

export async function requireRole(
  ctx: AppContext,
  request: FastifyRequest,
  roles: readonly StaffRole[],
  refusal?: Refusal,
): Promise<{ userId: string; role: StaffRole }> {
  const { userId } = requireUser(request);
  const role = await getRole(ctx.database.db, userId);
  if (!roles.includes(role)) {
    const logged = refusal ?? {
      severity: 'high',
      description: `Accès refusé à ${request.method} ${request.routeOptions.url ?? ''} (rôle : ${role})`,
    };
    await ctx.logSecurityEvent({ userId, ip: request.ip, eventType: 'permission_denied', ...logged });
    throw forbidden();
  }
  return { userId, role };
}
