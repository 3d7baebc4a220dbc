/**
 * Comments API: list (public), add, edit and delete (signed in; only the author edits or
 * deletes). Every change reaches the map's viewers as a `post.commented` event.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  commentCreatedResponseSchema, commentDeletedResponseSchema, commentEditedResponseSchema, commentInputSchema,
  commentsListResponseSchema, idParamsSchema, type InteractionEvent,
} from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/guard.ts';
import { addComment, deleteComment, editComment, listComments } from './service.ts';

/** An absent JSON body reads as `{}`, so a missing text gets its own message. */
const commentBody = z.preprocess((value) => value ?? {}, commentInputSchema);

export default async function commentsRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;

  const announce = (request: FastifyRequest, event: InteractionEvent) =>
    ctx.bus.publish(event).catch((error) => request.log.error({ err: error }, 'publish failed'));

  /** Every write counts against the caller's pace before its text is validated and sanitised. */
  const countWrite = async (request: FastifyRequest) => {
    const { userId } = requireUser(request);
    await ctx.limits.consume('comment_write', `user:${userId}`, { message: 'comment_rate_limited', userId, ip: request.ip });
  };

  app.get('/api/posts/:id/comments', {
    schema: { params: idParamsSchema, response: { 200: commentsListResponseSchema } },
  }, async (request, reply) => {
    return reply.header('cache-control', 'no-store').send({ comments: await listComments(db, request.params.id) });
  });

  app.post('/api/posts/:id/comments', {
    onRequest: app.authenticate,
    preValidation: countWrite,
    schema: { params: idParamsSchema, body: commentBody, response: { 201: commentCreatedResponseSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    const { id } = request.params;
    const { comment, commentsCount } = await addComment(db, id, userId, request.body.content);
    await announce(request, { type: 'post.commented', data: { postId: id, commentsCount, comment } });
    return reply.status(201).send({ comment, commentsCount });
  });

  app.patch('/api/comments/:id', {
    onRequest: app.authenticate,
    preValidation: countWrite,
    schema: { params: idParamsSchema, body: commentBody, response: { 200: commentEditedResponseSchema } },
  }, async (request) => {
    const { userId } = requireUser(request);
    const { comment, commentsCount } = await editComment(db, request.params.id, userId, request.body.content);
    await announce(request, { type: 'post.commented', data: { postId: comment.postId, commentsCount, comment } });
    return { comment };
  });

  app.delete('/api/comments/:id', {
    onRequest: app.authenticate,
    schema: { params: idParamsSchema, response: { 200: commentDeletedResponseSchema } },
  }, async (request) => {
    const { userId } = requireUser(request);
    const { id } = request.params;
    const { postId, commentsCount } = await deleteComment(db, id, userId);
    await announce(request, { type: 'post.commented', data: { postId, commentsCount, removedCommentId: id } });
    return { commentsCount };
  });
}
