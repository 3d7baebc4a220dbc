/**
 * Search API: `GET /api/search?q=…&moods=happy,love`, public (a signed-in caller also gets
 * isLikedByUser). Rate limit `search` (spec §9): 200 an hour per user, or per IP for visitors.
 */
import type { FastifyInstance } from 'fastify';
import { searchQuerySchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { ipKey } from '../../adapters/rate-limit/limiter.ts';
import { validationError } from '../../errors.ts';
import { searchPosts } from './service.ts';

export default async function searchRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.get('/api/search', { onRequest: app.authenticateOptional }, async (request, reply) => {
    const parsed = searchQuerySchema.safeParse(request.query ?? {});
    if (!parsed.success) throw validationError(parsed.error.issues[0]?.message);
    const userId = request.auth?.userId ?? null;
    await ctx.limits.consume('search', userId ? `user:${userId}` : ipKey(request.ip), { message: 'search_rate_limited', userId, ip: request.ip });
    const results = await searchPosts(db, parsed.data, userId);
    return reply.header('cache-control', 'no-store').send({ results });
  });
}
