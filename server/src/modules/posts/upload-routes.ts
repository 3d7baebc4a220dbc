/**
 * Uploads for a post: an image or a voice message, stored before the post that will claim them.
 * Multipart bodies are read and checked by readUpload (media module), not by a JSON schema.
 */
import { imageUploadResponseSchema, voiceUploadResponseSchema } from '@moodmap/core';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { TypedApp } from '../../http/typed-app.ts';
import { requireUser } from '../auth/guard.ts';
import { readUpload, storeImage, storeVoiceMessage } from '../media/index.ts';
import { recordUpload } from './service.ts';

/** The caller, once their upload rate allows one more file. */
async function uploader(ctx: AppContext, request: FastifyRequest): Promise<string> {
  const { userId } = requireUser(request);
  await ctx.limits.consume('file_upload', `user:${userId}`, { message: 'upload_rate_limited', userId, ip: request.ip });
  return userId;
}

export function uploadRoutes(app: TypedApp, ctx: AppContext): void {
  const { db } = ctx.database;

  app.post(
    '/api/uploads/post-image',
    {
      config: { write: 'publish' },
      onRequest: app.authenticate,
      schema: { response: { 201: imageUploadResponseSchema } },
    },
    async (request, reply) => {
      const userId = await uploader(ctx, request);
      const { file } = await readUpload(request, 'post', { required: true, field: 'file' });
      const stored = await storeImage(ctx.storage, file!.body, 'post');
      const uploadId = await recordUpload(db, userId, {
        kind: 'post_image',
        url: stored.url,
        thumbnailUrl: stored.thumb?.url,
      });
      return reply.status(201).send({ uploadId, url: stored.url, thumbnailUrl: stored.thumb?.url ?? null });
    },
  );

  app.post(
    '/api/uploads/voice',
    {
      config: { write: 'publish' },
      onRequest: app.authenticate,
      schema: { response: { 201: voiceUploadResponseSchema } },
    },
    async (request, reply) => {
      const userId = await uploader(ctx, request);
      const { file } = await readUpload(request, 'audio', { required: true, field: 'file' });
      const stored = await storeVoiceMessage(ctx.storage, file!.body);
      const uploadId = await recordUpload(db, userId, {
        kind: 'voice',
        url: stored.url,
        durationSeconds: stored.durationSeconds,
      });
      return reply.status(201).send({ uploadId, url: stored.url, duration: stored.durationSeconds });
    },
  );
}
