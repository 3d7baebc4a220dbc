/**
 * Likes API: `PUT` / `DELETE /api/posts/:id/like` set or remove the caller's like, so a retried
 * request (a double tap, a replay, two tabs) leaves what the person meant; `POST` toggles it
 * (deprecated alias, kept for clients of the previous release). The new count is announced only
 * when it moved.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, likeStateSchema, likeToggleResultSchema, type LikeState } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { enforce } from '../../policies/actor.ts';
import { mayLike } from '../../policies/likes.ts';
import { requireUser } from '../auth/guard.ts';
import { blockedWith } from '../blocks/data.ts';
import { postOwner } from '../posts/data.ts';
import { setLike, toggleLike, type LikeOutcome } from './service.ts';

export default async function likesRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;

  /** The caller, once it is sure they may touch this post's likes (a post that is gone is the write's 404). */
  async function liker(request: FastifyRequest, postId: string): Promise<string> {
    const member = requireUser(request);
    const authorId = await postOwner(db, postId);
    if (authorId) enforce(mayLike(member, { userId: authorId }, await blockedWith(db, member, authorId)));
    return member.userId;
  }

  async function announce(request: FastifyRequest, postId: string, { state, moved }: LikeOutcome): Promise<void> {
    if (!moved) return;
    // No user id in the event: every viewer gets the count and keeps its own isLikedByUser.
    // `at`: only the sockets whose map shows the post get it; `about`: not those who blocked
    // the author or were blocked by them (no event about a blocked person).
    await ctx.bus
      .publish({
        type: 'post.liked',
        data: { postId, likesCount: state.likesCount },
        at: moved.at,
        about: [moved.authorId],
      })
      .catch((error) => request.log.error({ err: error }, 'publish failed'));
  }

  async function set(request: FastifyRequest, postId: string, liked: boolean): Promise<LikeState> {
    const outcome = await setLike(db, postId, await liker(request, postId), liked);
    await announce(request, postId, outcome);
    return outcome.state;
  }

  const rules = { config: { write: 'like' as const }, onRequest: app.authenticate };
  const setOptions = { ...rules, schema: { params: idParamsSchema, response: { 200: likeStateSchema } } };
  app.put('/api/posts/:id/like', setOptions, (request) => set(request, request.params.id, true));
  app.delete('/api/posts/:id/like', setOptions, (request) => set(request, request.params.id, false));

  app.post(
    '/api/posts/:id/like',
    { ...rules, schema: { params: idParamsSchema, response: { 200: likeToggleResultSchema } } },
    async (request) => {
      const { id } = request.params;
      const outcome = await toggleLike(db, id, await liker(request, id));
      await announce(request, id, outcome);
      return { liked: outcome.state.isLikedByUser, likesCount: outcome.state.likesCount };
    },
  );
}
