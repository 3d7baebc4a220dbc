/**
 * One post: my active one, a post by id, create and delete. Every rule of publication
 * (docs/product.md, Posts) is checked here, whatever the browser did.
 */
import { z } from 'zod';
import { activePostResponseSchema, createPostSchema, idParamsSchema, postResponseSchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { TypedApp } from '../../http/typed-app.ts';
import { enforce } from '../../policies/actor.ts';
import { mayReadPost } from '../../policies/posts.ts';
import { requireUser } from '../auth/guard.ts';
import { deleteMediaUrls } from '../media/index.ts';
import { createdEvent, deletedEvent } from './events.ts';
import type { PostsParts } from './parts.ts';
import { createPost, deletePost, getActivePost, getLivePost } from './service.ts';

/** An absent JSON body reads as `{}`, so its fields get their own messages (not "expected object"). */
const createBody = z.preprocess((value) => value ?? {}, createPostSchema);
const noContent = z.undefined();

/** The category of a body not validated yet (checked before the rate limit). */
function categoryOf(body: unknown): unknown {
  return body !== null && typeof body === 'object' && 'category' in body ? body.category : undefined;
}

export function postRoutes(app: TypedApp, ctx: AppContext, { blocks, isOnLand, approximate }: PostsParts): void {
  const { db } = ctx.database;

  app.get(
    '/api/posts/mine/active',
    { onRequest: app.authenticate, schema: { response: { 200: activePostResponseSchema } } },
    async (request) => {
      return { post: await getActivePost(db, requireUser(request).userId) };
    },
  );

  app.get(
    '/api/posts/:id',
    {
      onRequest: app.authenticateOptional,
      schema: { params: idParamsSchema, response: { 200: postResponseSchema } },
    },
    async (request) => {
      const { id } = request.params;
      const post = await getLivePost(db, id, request.auth?.userId ?? null);
      if (!post) throw notFound('post_not_found');
      enforce(mayReadPost(await blocks.hiddenFor(request.auth?.userId), post));
      return { post };
    },
  );

  app.post(
    '/api/posts',
    {
      config: { write: 'publish' },
      onRequest: app.authenticate,
      // Category first, then the rate limit, then the other rules (docs/product.md, Posts): the
      // first two before the schema validates the whole body.
      preValidation: async (request) => {
        const { userId } = requireUser(request);
        await ctx.costs.assertPostingAllowed();
        if (!createPostSchema.shape.category.safeParse(categoryOf(request.body)).success)
          throw badRequest('category_invalid');
        await ctx.limits.consume('post_create', `user:${userId}`, {
          message: 'post_rate_limited',
          userId,
          ip: request.ip,
        });
      },
      schema: { body: createBody, response: { 201: postResponseSchema } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const { post, marker } = await createPost({ db, isOnLand, approximate }, userId, request.body);
      await ctx.analytics.happened('post_created');
      await ctx.bus
        .publish(createdEvent(marker, userId))
        .catch((error) => request.log.error({ err: error }, 'publish failed'));
      return reply.status(201).send({ post });
    },
  );

  app.delete(
    '/api/posts/:id',
    {
      config: { write: 'remove' },
      onRequest: app.authenticate,
      schema: { params: idParamsSchema, response: { 204: noContent } },
    },
    async (request, reply) => {
      const { id } = request.params;
      const deleted = await deletePost(db, requireUser(request), id);
      await deleteMediaUrls(ctx.storage, deleted.mediaUrls).catch((error) =>
        request.log.warn({ err: error }, 'media cleanup failed'),
      );
      await ctx.bus
        .publish(deletedEvent(deleted))
        .catch((error) => request.log.error({ err: error }, 'publish failed'));
      return reply.status(204).send();
    },
  );
}
