/**
 * Posts API: the live feed, the map's viewport and changes feeds, my active post, uploads for a
 * post, create and delete. Every rule of spec §5 "Publication" is checked here, whatever the
 * browser did.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activePostResponseSchema, changesQuerySchema, changesResponseSchema, createPostSchema, idParamsSchema,
  imageUploadResponseSchema, postResponseSchema, postsFeedResponseSchema, viewportQuerySchema, viewportResponseSchema,
  voiceUploadResponseSchema,
} from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { createLandDecision, createMapboxGeocoder, withVerdictCache } from '../../adapters/geocoder/index.ts';
import { getLandChecker } from '../geo/land-check.ts';
import { deleteMediaUrls, readUpload, storeImage, storeVoiceMessage } from '../media/index.ts';
import { createFeedCache, decodeCursor, getChanges, getViewport, toViewport } from './feed.ts';
import { createPost, deletePost, getActivePost, getLivePost, listLivePosts, recordUpload } from './service.ts';
import { sweepExpired } from './sweeper.ts';

const SWEEP_EVERY_MS = 60_000;
/** An absent JSON body reads as `{}`, so its fields get their own messages (not "expected object"). */
const createBody = z.preprocess((value) => value ?? {}, createPostSchema);
const noContent = z.undefined();
/**
 * The map's feed answers are the hot path (up to 2000 posts): their schema types the handler's
 * answer at compile time, but they are sent with plain JSON.stringify, since checking every post
 * again at runtime cost 35–55 % more serialisation time (1 ms at 460 posts, 12 ms at 2000).
 */
const plainJson = () => (data: unknown) => JSON.stringify(data);

/** The category of a body not validated yet (spec §5 checks it before the rate limit). */
function categoryOf(body: unknown): unknown {
  return body !== null && typeof body === 'object' && 'category' in body ? body.category : undefined;
}

export default async function postsRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const land = getLandChecker();
  const geocoder = ctx.config.geocoderMapboxToken ? createMapboxGeocoder(ctx.config.geocoderMapboxToken) : null;
  const isOnLand = createLandDecision((lat, lon) => land.isOnLand(lat, lon), geocoder ? withVerdictCache(geocoder) : undefined);

  app.get('/api/posts', { onRequest: app.authenticateOptional, schema: { response: { 200: postsFeedResponseSchema } } }, async (request, reply) => {
    const posts = await listLivePosts(db, request.auth?.userId ?? null);
    return reply.header('cache-control', 'no-store').send({ posts, serverTime: new Date().toISOString() });
  });

  // The map's feed (feed.ts): what lies in the view, then changes since the answer's cursor.
  const feedCache = createFeedCache(() => ctx.now().getTime());
  app.get('/api/posts/viewport', {
    onRequest: app.authenticateOptional,
    schema: { querystring: viewportQuerySchema, response: { 200: viewportResponseSchema } },
    serializerCompiler: plainJson,
  }, async (request, reply) => {
    const view = toViewport(request.query);
    return reply.header('cache-control', 'no-store').send(await getViewport(db, view, request.auth?.userId ?? null, feedCache));
  });

  app.get('/api/posts/changes', {
    onRequest: app.authenticateOptional,
    schema: { querystring: changesQuerySchema, response: { 200: changesResponseSchema } },
    serializerCompiler: plainJson,
  }, async (request, reply) => {
    const since = decodeCursor(request.query.since);
    return reply.header('cache-control', 'no-store').send(await getChanges(db, since, request.auth?.userId ?? null));
  });

  app.get('/api/posts/mine/active', { onRequest: app.authenticate, schema: { response: { 200: activePostResponseSchema } } }, async (request) => {
    return { post: await getActivePost(db, requireUser(request).userId) };
  });

  app.get('/api/posts/:id', {
    onRequest: app.authenticateOptional,
    schema: { params: idParamsSchema, response: { 200: postResponseSchema } },
  }, async (request) => {
    const { id } = request.params;
    const post = await getLivePost(db, id, request.auth?.userId ?? null);
    if (!post) throw new AppError(404, 'post_not_found');
    return { post };
  });

  // Multipart bodies are read and checked by readUpload (media module), not by a JSON schema.
  app.post('/api/uploads/post-image', { onRequest: app.authenticate, schema: { response: { 201: imageUploadResponseSchema } } }, async (request, reply) => {
    const { userId } = requireUser(request);
    await ctx.limits.consume('file_upload', `user:${userId}`, { message: 'upload_rate_limited', userId, ip: request.ip });
    const { file } = await readUpload(request, 'post', { required: true, field: 'file' });
    const stored = await storeImage(ctx.storage, file!.body, 'post');
    const uploadId = await recordUpload(db, userId, { kind: 'post_image', url: stored.url, thumbnailUrl: stored.thumb?.url });
    return reply.status(201).send({ uploadId, url: stored.url, thumbnailUrl: stored.thumb?.url ?? null });
  });

  app.post('/api/uploads/voice', { onRequest: app.authenticate, schema: { response: { 201: voiceUploadResponseSchema } } }, async (request, reply) => {
    const { userId } = requireUser(request);
    await ctx.limits.consume('file_upload', `user:${userId}`, { message: 'upload_rate_limited', userId, ip: request.ip });
    const { file } = await readUpload(request, 'audio', { required: true, field: 'file' });
    const stored = await storeVoiceMessage(ctx.storage, file!.body);
    const uploadId = await recordUpload(db, userId, { kind: 'voice', url: stored.url, durationSeconds: stored.durationSeconds });
    return reply.status(201).send({ uploadId, url: stored.url, duration: stored.durationSeconds });
  });

  app.post('/api/posts', {
    onRequest: app.authenticate,
    // Category first, then the rate limit, then the other rules, as spec §5 lists them: the
    // first two before the schema validates the whole body.
    preValidation: async (request) => {
      const { userId } = requireUser(request);
      if (!createPostSchema.shape.category.safeParse(categoryOf(request.body)).success) throw badRequest('category_invalid');
      await ctx.limits.consume('post_create', `user:${userId}`, { message: 'post_rate_limited', userId, ip: request.ip });
    },
    schema: { body: createBody, response: { 201: postResponseSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    const post = await createPost({ db, isOnLand }, userId, request.body);
    await ctx.bus.publish({ type: 'post.created', data: { post } }).catch((error) => request.log.error({ err: error }, 'publish failed'));
    return reply.status(201).send({ post });
  });

  app.delete('/api/posts/:id', { onRequest: app.authenticate, schema: { params: idParamsSchema, response: { 204: noContent } } }, async (request, reply) => {
    const { userId } = requireUser(request);
    const { id } = request.params;
    const urls = await deletePost(db, userId, id);
    await deleteMediaUrls(ctx.storage, urls).catch((error) => request.log.warn({ err: error }, 'media cleanup failed'));
    await ctx.bus.publish({ type: 'post.deleted', data: { id } }).catch(() => {});
    return reply.status(204).send();
  });

  // The sweeper: expired posts leave every map and their files leave the store.
  const sweep = async () => {
    try {
      const { posts, mediaUrls } = await sweepExpired(db);
      await deleteMediaUrls(ctx.storage, mediaUrls);
      for (const id of posts) await ctx.bus.publish({ type: 'post.deleted', data: { id } });
    } catch (error) {
      app.log.warn({ err: error }, 'sweep failed');
    }
  };
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
