/**
 * Search API: `GET /api/search?q=…&moods=happy,love`, public (a signed-in caller also gets
 * isLikedByUser). Rate limit `search`: 200 an hour per user, or per IP for visitors.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { searchQuerySchema, searchResponseSchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { ipKey } from '../../adapters/rate-limit/limiter.ts';
import { blockRule } from '../blocks/rule.ts';
import { searchPosts } from './service.ts';

export default async function searchRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;

  app.get(
    '/api/search',
    {
      onRequest: app.authenticateOptional,
      schema: { querystring: searchQuerySchema, response: { 200: searchResponseSchema } },
    },
    async (request, reply) => {
      const userId = request.auth?.userId ?? null;
      await ctx.limits.consume('search', userId ? `user:${userId}` : ipKey(request.ip), {
        message: 'search_rate_limited',
        userId,
        ip: request.ip,
      });
      const found = await searchPosts(db, request.query, userId);
      // Nothing of a person one blocked or was blocked by.
      const results = await blockRule(db, ctx.bus).visibleTo(userId, found);
      return reply.header('cache-control', 'no-store').send({ results });
    },
  );
}
