/**
 * Moderation API (docs/moderation.md): the queue and decisions (moderator and up: staff-routes.ts),
 * appeals (the author files, another moderator decides) and the caller's notices (member-routes.ts).
 * Every staff action is written to the append-only security log with its actor, target and reason.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { memberRoutes } from './member-routes.ts';
import { staffRoutes } from './staff-routes.ts';

export default async function moderationRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  staffRoutes(app, ctx);
  memberRoutes(app, ctx);
}
