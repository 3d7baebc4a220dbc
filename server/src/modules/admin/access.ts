/**
 * The staff guard (docs/product.md, Roles and staff). A route that needs a staff tool:
 *
 *   const actor = await requireRole(ctx, request, 'moderate');
 *
 * A visitor already got the 401 from `app.authenticate`. The caller's role is read here and
 * judged by policies/staff.ts; a signed-in person without it gets 403 'Accès refusé :
 * permissions insuffisantes' and a 'permission_denied' entry: high, naming the route and role,
 * unless the tool words its own.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../policies/actor.ts';
import { mayAct, refusalEntry, type StaffTool } from '../../policies/staff.ts';
import { requireUser } from '../auth/guard.ts';
import { getRole } from '../auth/users.ts';

export async function requireRole(ctx: AppContext, request: FastifyRequest, tool: StaffTool): Promise<Actor> {
  const { userId } = requireUser(request);
  const actor: Actor = { userId, role: await getRole(ctx.database.db, userId) };
  const refusal = mayAct(actor, tool);
  if (refusal) {
    const logged = refusalEntry(tool) ?? {
      severity: 'high',
      description: `Accès refusé à ${request.method} ${request.routeOptions.url ?? ''} (rôle : ${actor.role})`,
    };
    await ctx.logSecurityEvent({ userId, ip: request.ip, eventType: 'permission_denied', ...logged });
    throw refusal;
  }
  return actor;
}
