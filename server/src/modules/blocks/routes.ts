/**
 * Blocking: `GET /api/blocks` (my list), `PUT /api/blocks/:id`, `DELETE /api/blocks/:id`.
 * The rules it feeds are enforced where people meet: messages, comments, the map's feed and the
 * realtime hub.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { blockResponseSchema, blocksResponseSchema, userIdParamsSchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { enforce } from '../../policies/actor.ts';
import { mayBlock } from '../../policies/blocks.ts';
import { requireUser } from '../auth/guard.ts';
import { deleteBlock, insertBlock, listBlocked } from './data.ts';
import { blockRelations } from './relations.ts';

export default async function blocksRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const relations = blockRelations(db, ctx.bus);

  app.get(
    '/api/blocks',
    { onRequest: app.authenticate, schema: { response: { 200: blocksResponseSchema } } },
    async (request, reply) => {
      const rows = await listBlocked(db, requireUser(request).userId);
      return reply
        .header('cache-control', 'no-store')
        .send({ blocked: rows.map((r) => ({ ...r, blockedAt: r.blockedAt.toISOString() })) });
    },
  );

  app.put(
    '/api/blocks/:id',
    {
      config: { write: 'block' },
      onRequest: app.authenticate,
      schema: { params: userIdParamsSchema, response: { 200: blockResponseSchema } },
    },
    async (request) => {
      const member = requireUser(request);
      const { userId } = member;
      const { id } = request.params;
      enforce(mayBlock(member, id));
      if (!(await insertBlock(db, userId, id))) throw notFound('profile_not_found');
      await relations.changed(userId, id, true);
      return { userId: id, blocked: true };
    },
  );

  app.delete(
    '/api/blocks/:id',
    {
      config: { write: 'block' },
      onRequest: app.authenticate,
      schema: { params: userIdParamsSchema, response: { 200: blockResponseSchema } },
    },
    async (request) => {
      const { userId } = requireUser(request);
      const { id } = request.params;
      await deleteBlock(db, userId, id);
      await relations.changed(userId, id, false);
      return { userId: id, blocked: false };
    },
  );
}
