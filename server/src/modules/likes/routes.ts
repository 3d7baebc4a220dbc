/** Likes API: `POST /api/posts/:id/like` toggles the caller's like and announces the new count. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, likeToggleResultSchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/guard.ts';
import { blockRule } from '../blocks/rule.ts';
import { postOwner } from '../posts/data.ts';
import { toggleLike } from './service.ts';

export default async function likesRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const blocks = blockRule(db, ctx.bus);

  app.post('/api/posts/:id/like', {
    config: { write: 'like' },
    onRequest: app.authenticate,
    schema: { params: idParamsSchema, response: { 200: likeToggleResultSchema } },
  }, async (request) => {
    const { userId } = requireUser(request);
    const { id } = request.params;
    // No like, nor unlike, on the post of someone blocked, in either direction.
    await blocks.assertMayMeet(userId, await postOwner(db, id));
    const { at, authorId, ...result } = await toggleLike(db, id, userId);
    // No user id in the event: every viewer gets the count and keeps its own isLikedByUser.
    // `at`: only the sockets whose map shows the post get it; `about`: not those who blocked
    // the author or were blocked by them (no event about a blocked person).
    await ctx.bus.publish({ type: 'post.liked', data: { postId: id, likesCount: result.likesCount }, at, about: [authorId] })
      .catch((error) => request.log.error({ err: error }, 'publish failed'));
    return result;
  });
}
