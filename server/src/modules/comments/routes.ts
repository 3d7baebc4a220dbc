/**
 * Comments API: list (public), add, edit and delete (signed in; only the author edits or
 * deletes). Every change reaches the map's viewers as a `post.commented` event.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { commentInputSchema, type InteractionEvent } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { addComment, deleteComment, editComment, listComments } from './service.ts';

const idParams = z.object({ id: z.uuid() });

export default async function commentsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  const announce = (request: FastifyRequest, event: InteractionEvent) =>
    ctx.bus.publish(event).catch((error) => request.log.error({ err: error }, 'publish failed'));

  /** Counts one write against the caller's pace, then validates and sanitises the text. */
  async function readContent(request: FastifyRequest, userId: string): Promise<string> {
    await ctx.limits.consume('comment_write', `user:${userId}`, { message: 'comment_rate_limited', userId, ip: request.ip });
    const parsed = commentInputSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error.issues[0]?.message);
    return parsed.data.content;
  }

  app.get('/api/posts/:id/comments', { schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params as z.infer<typeof idParams>;
    return reply.header('cache-control', 'no-store').send({ comments: await listComments(db, id) });
  });

  app.post('/api/posts/:id/comments', { onRequest: app.authenticate, schema: { params: idParams } }, async (request, reply) => {
    const { userId } = requireUser(request);
    const { id } = request.params as z.infer<typeof idParams>;
    const content = await readContent(request, userId);
    const { comment, commentsCount } = await addComment(db, id, userId, content);
    await announce(request, { type: 'post.commented', data: { postId: id, commentsCount, comment } });
    return reply.status(201).send({ comment, commentsCount });
  });

  app.patch('/api/comments/:id', { onRequest: app.authenticate, schema: { params: idParams } }, async (request) => {
    const { userId } = requireUser(request);
    const { id } = request.params as z.infer<typeof idParams>;
    const content = await readContent(request, userId);
    const { comment, commentsCount } = await editComment(db, id, userId, content);
    await announce(request, { type: 'post.commented', data: { postId: comment.postId, commentsCount, comment } });
    return { comment };
  });

  app.delete('/api/comments/:id', { onRequest: app.authenticate, schema: { params: idParams } }, async (request) => {
    const { userId } = requireUser(request);
    const { id } = request.params as z.infer<typeof idParams>;
    const { postId, commentsCount } = await deleteComment(db, id, userId);
    await announce(request, { type: 'post.commented', data: { postId, commentsCount, removedCommentId: id } });
    return { commentsCount };
  });
}
