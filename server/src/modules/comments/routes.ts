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
import type { PostPlace } from '../../adapters/bus/types.ts';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { blockRelations } from '../blocks/relations.ts';
import { assertCanWrite } from '../moderation/restrictions.ts';
import { postOwner } from '../posts/data.ts';
import { addComment, deleteComment, editComment, listComments } from './service.ts';

/** An absent JSON body reads as `{}`, so a missing text gets its own message. */
const commentBody = z.preprocess((value) => value ?? {}, commentInputSchema);

export default async function commentsRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const relations = blockRelations(db, ctx.bus);

  /** `at`, the post's place: only the sockets whose map shows the post get the event. */
  const announce = (request: FastifyRequest, event: InteractionEvent, at: PostPlace) =>
    ctx.bus.publish({ ...event, at, about: [requireUser(request).userId] }).catch((error) => request.log.error({ err: error }, 'publish failed'));

  /** Every write counts against the caller's pace before its text is validated and sanitised. */
  const countWrite = async (request: FastifyRequest) => {
    const { userId } = requireUser(request);
    await ctx.limits.consume('comment_write', `user:${userId}`, { message: 'comment_rate_limited', userId, ip: request.ip });
  };

  app.get('/api/posts/:id/comments', {
    onRequest: app.authenticateOptional,
    schema: { params: idParamsSchema, response: { 200: commentsListResponseSchema } },
  }, async (request, reply) => {
    const comments = await listComments(db, request.params.id);
    // Each of two people who blocked one another stops seeing the other's comments (issue 17).
    const hidden = request.auth ? await relations.of(request.auth.userId) : null;
    return reply.header('cache-control', 'no-store').send({ comments: hidden?.size ? comments.filter((c) => !hidden.has(c.userId)) : comments });
  });

  app.post('/api/posts/:id/comments', {
    onRequest: app.authenticate,
    preValidation: countWrite,
    schema: { params: idParamsSchema, body: commentBody, response: { 201: commentCreatedResponseSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    const { id } = request.params;
    // Issue 17: a suspended author, or someone the post's author blocked (or who blocked them), may not comment.
    await assertCanWrite(db, userId, ctx.now());
    const owner = await postOwner(db, id);
    if (owner && owner !== userId && (await relations.of(userId)).has(owner)) throw forbidden('user_blocked_you');
    const { comment, commentsCount, at } = await addComment(db, id, userId, request.body.content);
    await announce(request, { type: 'post.commented', data: { postId: id, commentsCount, comment } }, at);
    return reply.status(201).send({ comment, commentsCount });
  });

  app.patch('/api/comments/:id', {
    onRequest: app.authenticate,
    preValidation: countWrite,
    schema: { params: idParamsSchema, body: commentBody, response: { 200: commentEditedResponseSchema } },
  }, async (request) => {
    const { userId } = requireUser(request);
    const { comment, commentsCount, at } = await editComment(db, request.params.id, userId, request.body.content);
    await announce(request, { type: 'post.commented', data: { postId: comment.postId, commentsCount, comment } }, at);
    return { comment };
  });

  app.delete('/api/comments/:id', {
    onRequest: app.authenticate,
    schema: { params: idParamsSchema, response: { 200: commentDeletedResponseSchema } },
  }, async (request) => {
    const { userId } = requireUser(request);
    const { id } = request.params;
    const { postId, commentsCount, at } = await deleteComment(db, id, userId);
    await announce(request, { type: 'post.commented', data: { postId, commentsCount, removedCommentId: id } }, at);
    return { commentsCount };
  });
}
