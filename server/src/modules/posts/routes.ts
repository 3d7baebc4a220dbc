/**
 * Posts API: the live feed, the map's viewport and changes feeds, my active post, uploads for a
 * post, create and delete. Every rule of publication (docs/product.md, Posts) is checked here, whatever the
 * browser did.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  GEOCODING_CALL_UNITS, activePostResponseSchema, changesQuerySchema, changesResponseSchema, createPostSchema, idParamsSchema,
  imageUploadResponseSchema, postCardsQuerySchema, postCardsResponseSchema, postResponseSchema, postsFeedResponseSchema,
  viewportQuerySchema, viewportResponseSchema, voiceUploadResponseSchema, type PostCreatedEvent, type PostDeletedEvent,
  type ChangesAnswer, type ViewportAnswer, type ViewportQuery,
} from '@moodmap/core';
import { acceptsGzip } from '../../http/compression.ts';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { createLandDecision, createMapboxGeocoder, withVerdictCache } from '../../adapters/geocoder/index.ts';
import { blockRule } from '../blocks/rule.ts';
import { deleteMediaUrls, readUpload, storeImage, storeVoiceMessage } from '../media/index.ts';
import { type DeletedPost, livePlacesOf } from './data.ts';
import { changesArea, clustersWithout, decodeCursor, getChanges, planView, toViewport, type ViewPlan } from './feed.ts';
import { createFeedCache, matchesEtag, MAX_AGE_S, type AnswerBytes } from './feed-cache.ts';
import { createApproximator } from './approximate.ts';
import { createPost, deletePost, getActivePost, getLivePost, getLivePosts, listLivePosts, recordUpload } from './service.ts';
import { POST_SWEEP_EVERY_MS, SWEEP_EVERY_MS, sweepExpired, sweepExpiredPosts } from './sweeper.ts';

/** Viewport plans kept by URL (a plan is a few hundred bytes). */
const PLANS_MAX = 8192;
/** An absent JSON body reads as `{}`, so its fields get their own messages (not "expected object"). */
const createBody = z.preprocess((value) => value ?? {}, createPostSchema);
const noContent = z.undefined();
/**
 * The changes poll's answer is typed by its schema at compile time and sent with plain
 * JSON.stringify: checking every marker again at runtime only costs time.
 */
const plainJson = () => (data: unknown) => JSON.stringify(data);

/** Ready bytes (the schema documents them), gzipped for clients that take it; 304 when the ETag matches. */
function sendBytes(request: FastifyRequest, reply: FastifyReply, bytes: AnswerBytes, maxAgeS: number) {
  const gzip = acceptsGzip(request.headers['accept-encoding']);
  reply.headers({ 'cache-control': `public, max-age=${maxAgeS}`, vary: 'accept-encoding', etag: gzip ? bytes.gzipEtag : bytes.etag });
  if (matchesEtag(request.headers['if-none-match'], bytes)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply.send(gzip ? bytes.gzip : bytes.identity);
}

/** JSON written by the database, sent as it is (the route's schema documents it). */
function sendJsonText(reply: FastifyReply, text: string) {
  return reply.type('application/json; charset=utf-8').send(Buffer.from(text));
}

/** The map event of a deleted or expired post: its id and place, scoped by the hub to the views holding it (and not to its author's blocked pairs). */
function deletedEvent(post: DeletedPost): PostDeletedEvent & { at: { latitude: number; longitude: number }; about: string[] } {
  const { id, latitude, longitude } = post;
  return { type: 'post.deleted', data: { id, latitude, longitude }, at: { latitude, longitude }, about: [post.userId] };
}

/** The category of a body not validated yet (checked before the rate limit). */
function categoryOf(body: unknown): unknown {
  return body !== null && typeof body === 'object' && 'category' in body ? body.category : undefined;
}

export default async function postsRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const blocks = blockRule(db, ctx.bus);
  const land = ctx.geo.land;
  const approximate = createApproximator(ctx.geo);
  const geocoder = ctx.config.geocoderMapboxToken ? createMapboxGeocoder(ctx.config.geocoderMapboxToken) : null;
  // Each call that reaches the geocoder is counted (cache hits are free); while the
  // cost monitor throttles, it is skipped and the offline land check decides alone.
  const verdict = geocoder ? withVerdictCache({
    reverse: (lat, lon) => {
      ctx.costs.count('geocoding', GEOCODING_CALL_UNITS);
      return geocoder.reverse(lat, lon);
    },
  }) : undefined;
  const isOnLand = createLandDecision((lat, lon) => land.isOnLand(lat, lon), verdict && (async (lat, lon) => (ctx.costs.geocoderAllowed() ? verdict(lat, lon) : 'unknown')));

  app.get('/api/posts', { onRequest: app.authenticateOptional, schema: { response: { 200: postsFeedResponseSchema } } }, async (request, reply) => {
    const viewerId = request.auth?.userId ?? null;
    const posts = await blocks.visibleTo(viewerId, await listLivePosts(db, viewerId));
    return reply.header('cache-control', 'no-store').send({ posts, serverTime: new Date().toISOString() });
  });

  // The map's feed (feed.ts): what lies in the view, as ready bytes shared by every viewer of
  // the same snapped view (feed-cache.ts), then changes since the answer's cursor.
  const feedCache = createFeedCache(() => ctx.now().getTime());
  const unsubscribe = ctx.bus.subscribe((event) => feedCache.onEvent(event));
  app.addHook('onClose', async () => unsubscribe());
  // Blocks: a viewer who blocked someone (or was blocked) gets the shared answer
  // filtered for them; everyone else keeps the shared bytes and ETags.
  const hiddenFor = (request: FastifyRequest) => blocks.hiddenFor(request.auth?.userId);
  // A URL always plans the same view (planView is pure) and the app's URLs repeat (its bounds
  // are snapped): plans are kept by URL, a bounded map emptied when full.
  const plans = new Map<string, ViewPlan>();
  const planOf = (url: string, query: ViewportQuery) => {
    let plan = plans.get(url);
    if (!plan) {
      plan = planView(toViewport(query));
      if (plans.size >= PLANS_MAX) plans.clear();
      plans.set(url, plan);
    }
    return plan;
  };
  app.get('/api/posts/viewport', {
    onRequest: app.authenticateOptional,
    // Sent already gzipped (or not) by this handler.
    compress: false,
    schema: { querystring: viewportQuerySchema, response: { 200: viewportResponseSchema } },
  }, async (request, reply) => {
    const plan = planOf(request.url, request.query);
    const bytes = await feedCache.get(plan.key, plan.area, () => plan.load(db));
    const hidden = await hiddenFor(request);
    // Throttled or in emergency mode, browsers and proxies keep map answers longer.
    if (!hidden?.size) return sendBytes(request, reply, bytes, MAX_AGE_S * ctx.costs.cacheMultiplier());
    const shared: ViewportAnswer = JSON.parse(bytes.identity.toString('utf8'));
    // Their posts leave the clusters too: a count must not give away that they posted there.
    const clusters = shared.clusters.length ? clustersWithout(shared.clusters, await livePlacesOf(db, [...hidden])) : shared.clusters;
    const own = { ...shared, points: shared.points.filter((p) => !hidden.has(p.userId)), clusters };
    return reply.header('cache-control', 'private, no-cache').send(own);
  });

  app.get('/api/posts/changes', {
    onRequest: app.authenticateOptional,
    schema: { querystring: changesQuerySchema, response: { 200: changesResponseSchema } },
    serializerCompiler: plainJson,
  }, async (request, reply) => {
    const since = decodeCursor(request.query.since);
    const text = await getChanges(db, since, changesArea(request.query));
    const hidden = await hiddenFor(request);
    reply.header('cache-control', 'no-store');
    // PostgreSQL's JSON as is (the schema documents it), unless some authors are hidden from this viewer.
    if (!hidden?.size) return sendJsonText(reply, text);
    const changes: ChangesAnswer = JSON.parse(text);
    return reply.send({ ...changes, created: changes.created.filter((p) => !hidden.has(p.userId)) });
  });

  // A 100 m group's list: the cards of the live posts among `ids`, newest first.
  app.get('/api/posts/cards', {
    onRequest: app.authenticateOptional,
    schema: { querystring: postCardsQuerySchema, response: { 200: postCardsResponseSchema } },
  }, async (request, reply) => {
    const hidden = await hiddenFor(request);
    const posts = (await getLivePosts(db, request.query.ids, request.auth?.userId ?? null)).filter((p) => !hidden?.has(p.userId));
    // The viewer's likes are in it: this browser only.
    return reply.header('cache-control', 'private, no-cache').send({ posts });
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
    if (!post || (await hiddenFor(request))?.has(post.userId)) throw new AppError(404, 'post_not_found');
    return { post };
  });

  // Multipart bodies are read and checked by readUpload (media module), not by a JSON schema.
  app.post('/api/uploads/post-image', { config: { write: 'publish' }, onRequest: app.authenticate, schema: { response: { 201: imageUploadResponseSchema } } }, async (request, reply) => {
    const { userId } = requireUser(request);
    await ctx.limits.consume('file_upload', `user:${userId}`, { message: 'upload_rate_limited', userId, ip: request.ip });
    const { file } = await readUpload(request, 'post', { required: true, field: 'file' });
    const stored = await storeImage(ctx.storage, file!.body, 'post');
    const uploadId = await recordUpload(db, userId, { kind: 'post_image', url: stored.url, thumbnailUrl: stored.thumb?.url });
    return reply.status(201).send({ uploadId, url: stored.url, thumbnailUrl: stored.thumb?.url ?? null });
  });

  app.post('/api/uploads/voice', { config: { write: 'publish' }, onRequest: app.authenticate, schema: { response: { 201: voiceUploadResponseSchema } } }, async (request, reply) => {
    const { userId } = requireUser(request);
    await ctx.limits.consume('file_upload', `user:${userId}`, { message: 'upload_rate_limited', userId, ip: request.ip });
    const { file } = await readUpload(request, 'audio', { required: true, field: 'file' });
    const stored = await storeVoiceMessage(ctx.storage, file!.body);
    const uploadId = await recordUpload(db, userId, { kind: 'voice', url: stored.url, durationSeconds: stored.durationSeconds });
    return reply.status(201).send({ uploadId, url: stored.url, duration: stored.durationSeconds });
  });

  app.post('/api/posts', {
    config: { write: 'publish' },
    onRequest: app.authenticate,
    // Category first, then the rate limit, then the other rules (docs/product.md, Posts): the
    // first two before the schema validates the whole body.
    preValidation: async (request) => {
      const { userId } = requireUser(request);
      await ctx.costs.assertPostingAllowed();
      if (!createPostSchema.shape.category.safeParse(categoryOf(request.body)).success) throw badRequest('category_invalid');
      await ctx.limits.consume('post_create', `user:${userId}`, { message: 'post_rate_limited', userId, ip: request.ip });
    },
    schema: { body: createBody, response: { 201: postResponseSchema } },
  }, async (request, reply) => {
    const { userId } = requireUser(request);
    const { post, marker } = await createPost({ db, isOnLand, approximate }, userId, request.body);
    await ctx.analytics.happened('post_created');
    const event: PostCreatedEvent = { type: 'post.created', data: { post: marker } };
    await ctx.bus.publish({ ...event, at: { latitude: marker.latitude, longitude: marker.longitude }, about: [userId] })
      .catch((error) => request.log.error({ err: error }, 'publish failed'));
    return reply.status(201).send({ post });
  });

  app.delete('/api/posts/:id', { config: { write: 'remove' }, onRequest: app.authenticate, schema: { params: idParamsSchema, response: { 204: noContent } } }, async (request, reply) => {
    const { userId } = requireUser(request);
    const { id } = request.params;
    const deleted = await deletePost(db, userId, id);
    await deleteMediaUrls(ctx.storage, deleted.mediaUrls).catch((error) => request.log.warn({ err: error }, 'media cleanup failed'));
    await ctx.bus.publish(deletedEvent(deleted)).catch((error) => request.log.error({ err: error }, 'publish failed'));
    return reply.status(204).send();
  });

  // The sweepers, on the leading instance only (failures are logged by the leader): expired
  // posts leave every map (and the cell counts) within seconds, with their files; tombstones and
  // orphan uploads every minute.
  const announceSwept = async (swept: DeletedPost[]) => {
    for (const post of swept) await ctx.bus.publish(deletedEvent(post));
  };
  const sweepPosts = async () => {
    const swept = await sweepExpiredPosts(db);
    await deleteMediaUrls(ctx.storage, swept.flatMap((p) => p.mediaUrls));
    await announceSwept(swept);
  };
  const sweepAll = async () => {
    const { deleted, mediaUrls } = await sweepExpired(db);
    await deleteMediaUrls(ctx.storage, mediaUrls);
    await announceSwept(deleted);
  };
  const sweepers = [ctx.leader.every('posts.sweep-expired', POST_SWEEP_EVERY_MS, sweepPosts), ctx.leader.every('posts.sweep-all', SWEEP_EVERY_MS, sweepAll)];
  app.addHook('onClose', async () => {
    await Promise.all(sweepers.map((stop) => stop()));
  });
}
