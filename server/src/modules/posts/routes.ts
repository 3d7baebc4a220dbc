/**
 * Posts API: the live feed, the map's viewport and changes feeds, my active post, uploads for a
 * post, create and delete. Every rule of spec §5 "Publication" is checked here, whatever the
 * browser did.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createPostSchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, validationError } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { createLandDecision, createMapboxGeocoder, withVerdictCache } from '../../adapters/geocoder/index.ts';
import { getLandChecker } from '../geo/land-check.ts';
import { deleteMediaUrls, readUpload, storeImage, storeVoiceMessage } from '../media/index.ts';
import { createFeedCache, decodeCursor, getChanges, getViewport, parseViewport } from './feed.ts';
import { createPost, deletePost, getActivePost, getLivePost, listLivePosts, recordUpload } from './service.ts';
import { sweepExpired } from './sweeper.ts';

const idParams = z.object({ id: z.uuid() });
/** The cursor is checked by decodeCursor; here only its type (one string, not a repeated parameter). */
const changesQuery = z.object({ since: z.string().max(64) });
const SWEEP_EVERY_MS = 60_000;

export default async function postsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;
  const land = getLandChecker();
  const geocoder = ctx.config.geocoderMapboxToken ? createMapboxGeocoder(ctx.config.geocoderMapboxToken) : null;
  const isOnLand = createLandDecision((lat, lon) => land.isOnLand(lat, lon), geocoder ? withVerdictCache(geocoder) : undefined);

  app.get('/api/posts', { onRequest: app.authenticateOptional }, async (request, reply) => {
    const posts = await listLivePosts(db, request.auth?.userId ?? null);
    return reply.header('cache-control', 'no-store').send({ posts, serverTime: new Date().toISOString() });
  });

  // The map's feed (feed.ts): what lies in the view, then changes since the answer's cursor.
  const feedCache = createFeedCache(() => ctx.now().getTime());
  app.get('/api/posts/viewport', { onRequest: app.authenticateOptional }, async (request, reply) => {
    const view = parseViewport(request.query);
    return reply.header('cache-control', 'no-store').send(await getViewport(db, view, request.auth?.userId ?? null, feedCache));
  });

  app.get('/api/posts/changes', { onRequest: app.authenticateOptional, schema: { querystring: changesQuery } }, async (request, reply) => {
    const since = decodeCursor((request.query as z.infer<typeof changesQuery>).since);
    return reply.header('cache-control', 'no-store').send(await getChanges(db, since, request.auth?.userId ?? null));
  });

  app.get('/api/posts/mine/active', { onRequest: app.authenticate }, async (request) => {
    return { post: await getActivePost(db, requireUser(request).userId) };
  });

  app.get('/api/posts/:id', { onRequest: app.authenticateOptional, schema: { params: idParams } }, async (request) => {
    const { id } = request.params as z.infer<typeof idParams>;
    const post = await getLivePost(db, id, request.auth?.userId ?? null);
    if (!post) throw new AppError(404, 'post_not_found');
    return { post };
  });

  app.post('/api/uploads/post-image', { onRequest: app.authenticate }, async (request, reply) => {
    const { userId } = requireUser(request);
    await ctx.limits.consume('file_upload', `user:${userId}`, { message: 'upload_rate_limited', userId, ip: request.ip });
    const { file } = await readUpload(request, 'post', { required: true, field: 'file' });
    const stored = await storeImage(ctx.storage, file!.body, 'post');
    const uploadId = await recordUpload(db, userId, { kind: 'post_image', url: stored.url, thumbnailUrl: stored.thumb?.url });
    return reply.status(201).send({ uploadId, url: stored.url, thumbnailUrl: stored.thumb?.url ?? null });
  });

  app.post('/api/uploads/voice', { onRequest: app.authenticate }, async (request, reply) => {
    const { userId } = requireUser(request);
    await ctx.limits.consume('file_upload', `user:${userId}`, { message: 'upload_rate_limited', userId, ip: request.ip });
    const { file } = await readUpload(request, 'audio', { required: true, field: 'file' });
    const stored = await storeVoiceMessage(ctx.storage, file!.body);
    const uploadId = await recordUpload(db, userId, { kind: 'voice', url: stored.url, durationSeconds: stored.durationSeconds });
    return reply.status(201).send({ uploadId, url: stored.url, duration: stored.durationSeconds });
  });

  app.post('/api/posts', { onRequest: app.authenticate }, async (request, reply) => {
    const { userId } = requireUser(request);
    // Category first, then the rate limit, as spec §5 lists them.
    const body = (request.body ?? {}) as Record<string, unknown>;
    const category = createPostSchema.shape.category.safeParse(body.category);
    if (!category.success) throw badRequest('category_invalid');
    await ctx.limits.consume('post_create', `user:${userId}`, { message: 'post_rate_limited', userId, ip: request.ip });
    const parsed = createPostSchema.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error.issues[0]?.message);
    const post = await createPost({ db, isOnLand }, userId, parsed.data);
    await ctx.bus.publish({ type: 'post.created', data: { post } }).catch((error) => request.log.error({ err: error }, 'publish failed'));
    return reply.status(201).send({ post });
  });

  app.delete('/api/posts/:id', { onRequest: app.authenticate, schema: { params: idParams } }, async (request, reply) => {
    const { userId } = requireUser(request);
    const { id } = request.params as z.infer<typeof idParams>;
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
