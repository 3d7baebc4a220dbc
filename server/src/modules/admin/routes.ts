/**
 * The admin panel's API (docs/product.md, Roles and staff):
 * - `POST /api/admin/visit`: each visit logs 'admin_access' (medium) for staff, or
 *   'permission_denied' (high) and 403 for anyone else;
 * - `GET /api/admin/users`: super_admin and admin; a moderator gets an empty list;
 *   never an e-mail;
 * - `GET /api/admin/security-logs`: every panel role;
 * - `PUT /api/admin/users/:id/role`: super_admin only, over a strictly lower role, written to the audit trail.
 * Who reaches each route: policies/staff.ts and policies/admin.ts.
 * The security log has no route that edits or deletes an entry, and the database refuses it too
 * (migration 0007's trigger).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMIN_PAGE_SIZE,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  adminVisitResponseSchema,
  roleLabel,
  securityLogsQuerySchema,
  securityLogsResponseSchema,
  setRoleBodySchema,
  setRoleResponseSchema,
  userIdParamsSchema,
  devRoleBodySchema,
} from '@moodmap/core';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { enforce } from '../../policies/actor.ts';
import { mayChangeRole, seesUserList } from '../../policies/admin.ts';
import { getRole } from '../auth/users.ts';
import { requireRole } from './access.ts';
import { listSecurityLogs, listUsers } from './lists.ts';
import { storeRole } from './roles.ts';

export default async function adminRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const noStore = { 'cache-control': 'no-store' };

  app.post(
    '/api/admin/visit',
    {
      config: { write: 'staff' },
      onRequest: app.authenticate,
      schema: { response: { 200: adminVisitResponseSchema } },
    },
    async (request) => {
      const { userId, role } = await requireRole(ctx, request, 'panel');
      await ctx.logSecurityEvent({
        userId,
        ip: request.ip,
        eventType: 'admin_access',
        severity: 'medium',
        description: `Accès au panel d'administration (${roleLabel(role)})`,
      });
      return { role };
    },
  );

  app.get(
    '/api/admin/users',
    {
      onRequest: app.authenticate,
      schema: { querystring: adminUsersQuerySchema, response: { 200: adminUsersResponseSchema } },
    },
    async (request, reply) => {
      const actor = await requireRole(ctx, request, 'panel');
      if (!seesUserList(actor)) return reply.headers(noStore).send({ users: [], nextCursor: null, total: 0 });
      const { cursor, q, limit = ADMIN_PAGE_SIZE } = request.query;
      const page = await listUsers(db, { cursor, q, limit });
      return reply.headers(noStore).send({ users: page.rows, nextCursor: page.nextCursor, total: page.total });
    },
  );

  app.get(
    '/api/admin/security-logs',
    {
      onRequest: app.authenticate,
      schema: { querystring: securityLogsQuerySchema, response: { 200: securityLogsResponseSchema } },
    },
    async (request, reply) => {
      await requireRole(ctx, request, 'panel');
      const { cursor, severity, eventType, limit = ADMIN_PAGE_SIZE } = request.query;
      const page = await listSecurityLogs(db, { cursor, severity, eventType, limit });
      return reply.headers(noStore).send({ logs: page.rows, nextCursor: page.nextCursor, total: page.total });
    },
  );

  app.put(
    '/api/admin/users/:id/role',
    {
      config: { write: 'staff' },
      onRequest: app.authenticate,
      schema: { params: userIdParamsSchema, body: setRoleBodySchema, response: { 200: setRoleResponseSchema } },
    },
    async (request) => {
      const actor = await requireRole(ctx, request, 'changeRoles');
      const { userId } = actor;
      const { id } = request.params;
      const { role } = request.body;
      const [target] = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
      if (!target) throw notFound('admin_user_not_found');
      const previous = await getRole(db, id);
      enforce(mayChangeRole(actor, { id, role: previous }));
      await storeRole(db, id, role);
      await ctx.logSecurityEvent({
        userId,
        ip: request.ip,
        eventType: 'role_change',
        severity: 'high',
        targetId: id,
        reason: `${previous} → ${role}`,
        description: `Rôle du membre ${id} : ${roleLabel(previous)} → ${roleLabel(role)}`,
      });
      return { userId: id, role };
    },
  );

  if (ctx.config.env !== 'production') devRoleRoute(root, ctx);
}

/**
 * Browser journeys need staff accounts while the server holds PGlite's only connection (the CLI
 * cannot open it then). Never in production; elsewhere for this machine only (http/dev-only.ts).
 */
function devRoleRoute(root: FastifyInstance, ctx: AppContext): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  app.post(
    '/dev/role',
    { schema: { body: devRoleBodySchema, response: { 200: setRoleResponseSchema } } },
    async (request) => {
      const { email, role } = request.body;
      const [user] = await db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`)
        .limit(1);
      if (!user) throw notFound('admin_user_not_found');
      await storeRole(db, user.id, role);
      await ctx.logSecurityEvent({
        eventType: 'role_change',
        severity: 'high',
        targetId: user.id,
        reason: `dev → ${role}`,
        description: `Rôle attribué en développement : ${roleLabel(role)}`,
      });
      return { userId: user.id, role };
    },
  );
}
