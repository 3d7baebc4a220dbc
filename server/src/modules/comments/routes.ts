/**
 * Comments API: list (public), add, edit and delete (signed in; only the author edits or
 * deletes). Every change reaches the map's viewers as a `post.commented` event.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  commentCreatedResponseSchema,
  commentDeletedResponseSchema,
  commentEditedResponseSchema,
  commentInputSchema,
  commentsListResponseSchema,
  idParamsSchema,
  type InteractionEvent,
} from '@moodmap/core';
import type { PostPlace } from '../../adapters/bus/types.ts';
import type { AppContext } from '../../context.ts';
import { enforce } from '../../policies/actor.ts';
import { mayReadPost } from '../../policies/posts.ts';
import { requireUser } from '../auth/guard.ts';
import { blockRule } from '../blocks/rule.ts';
import { postOwner } from '../posts/data.ts';
import { addComment, deleteComment, editComment, listComments } from './service.ts';

/** An absent JSON body reads as `{}`, so a missing text gets its own message. */
const commentBody = z.preprocess((value) => value ?? {}, commentInputSchema);

export default async function commentsRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const blocks = blockRule(db, ctx.bus);

  /** `at`, the post's place: only the sockets whose map shows the post get the event; `about`: not the blocked pairs of the commenter or the post's author. */
  const announce = (request: FastifyRequest, event: InteractionEvent, at: PostPlace, postAuthorId: string) =>
    ctx.bus
      .publish({ ...event, at, about: [requireUser(request).userId, postAuthorId] })
      .catch((error) => request.log.error({ err: error }, 'publish failed'));

  /** Every write counts against the caller's pace before its text is validated and sanitised. */
  const countWrite = async (request: FastifyRequest) => {
    const { userId } = requireUser(request);
    await ctx.limits.consume('comment_write', `user:${userId}`, {
      message: 'comment_rate_limited',
      userId,
      ip: request.ip,
    });
  };

  app.get(
    '/api/posts/:id/comments',
    {
      onRequest: app.authenticateOptional,
      schema: { params: idParamsSchema, response: { 200: commentsListResponseSchema } },
    },
    async (request, reply) => {
      const comments = await listComments(db, request.params.id);
      // A blocked pair: the other's post reads as unknown, the other's comments are left out.
      const viewerId = request.auth?.userId;
      const owner = await postOwner(db, request.params.id);
      if (owner) enforce(mayReadPost(await blocks.hiddenFor(viewerId), { userId: owner }));
      return reply.header('cache-control', 'no-store').send({ comments: await blocks.visibleTo(viewerId, comments) });
    },
  );

  app.post(
    '/api/posts/:id/comments',
    {
      config: { write: 'comment' },
      onRequest: app.authenticate,
      preValidation: countWrite,
      schema: { params: idParamsSchema, body: commentBody, response: { 201: commentCreatedResponseSchema } },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { comment, commentsCount, at, postAuthorId } = await addComment(
        db,
        id,
        requireUser(request),
        request.body.content,
      );
      await announce(
        request,
        { type: 'post.commented', data: { postId: id, commentsCount, comment } },
        at,
        postAuthorId,
      );
      return reply.status(201).send({ comment, commentsCount });
    },
  );

  app.patch(
    '/api/comments/:id',
    {
      config: { write: 'comment' },
      onRequest: app.authenticate,
      preValidation: countWrite,
      schema: { params: idParamsSchema, body: commentBody, response: { 200: commentEditedResponseSchema } },
    },
    async (request) => {
      const { comment, commentsCount, at, postAuthorId } = await editComment(
        db,
        request.params.id,
        requireUser(request),
        request.body.content,
      );
      await announce(
        request,
        { type: 'post.commented', data: { postId: comment.postId, commentsCount, comment } },
        at,
        postAuthorId,
      );
      return { comment };
    },
  );

  app.delete(
    '/api/comments/:id',
    {
      config: { write: 'remove' },
      onRequest: app.authenticate,
      schema: { params: idParamsSchema, response: { 200: commentDeletedResponseSchema } },
    },
    async (request) => {
      const { id } = request.params;
      const { postId, commentsCount, at, postAuthorId } = await deleteComment(db, id, requireUser(request));
      await announce(
        request,
        { type: 'post.commented', data: { postId, commentsCount, removedCommentId: id } },
        at,
        postAuthorId,
      );
      return { commentsCount };
    },
  );
}
