/**
 * The map's reading routes: the live feed, the viewport (feed.ts: what lies in the view, as
 * ready bytes shared by every viewer of the same snapped view, feed-cache.ts), the changes
 * since an answer's cursor, and a 100 m group's cards.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  changesQuerySchema,
  changesResponseSchema,
  postCardsQuerySchema,
  postCardsResponseSchema,
  postsFeedResponseSchema,
  viewportQuerySchema,
  viewportResponseSchema,
  type ChangesAnswer,
  type ViewportAnswer,
} from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { acceptsGzip } from '../../http/compression.ts';
import type { TypedApp } from '../../http/typed-app.ts';
import { isHidden } from '../../policies/blocks.ts';
import { livePlacesOf } from './data.ts';
import { changesArea, clustersWithout, decodeCursor, getChanges } from './feed.ts';
import { createFeedCache, matchesEtag, MAX_AGE_S, type AnswerBytes } from './feed-cache.ts';
import type { PostsParts } from './parts.ts';
import { getLivePosts, listLivePosts } from './service.ts';

/**
 * The changes poll's answer is typed by its schema at compile time and sent with plain
 * JSON.stringify: checking every marker again at runtime only costs time.
 */
const plainJson = () => (data: unknown) => JSON.stringify(data);

/** Ready bytes (the schema documents them), gzipped for clients that take it; 304 when the ETag matches. */
function sendBytes(request: FastifyRequest, reply: FastifyReply, bytes: AnswerBytes, maxAgeS: number) {
  const gzip = acceptsGzip(request.headers['accept-encoding']);
  reply.headers({
    'cache-control': `public, max-age=${maxAgeS}`,
    vary: 'accept-encoding',
    etag: gzip ? bytes.gzipEtag : bytes.etag,
  });
  if (matchesEtag(request.headers['if-none-match'], bytes)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply.send(gzip ? bytes.gzip : bytes.identity);
}

/** JSON written by the database, sent as it is (the route's schema documents it). */
function sendJsonText(reply: FastifyReply, text: string) {
  return reply.type('application/json; charset=utf-8').send(Buffer.from(text));
}

export function feedRoutes(app: TypedApp, ctx: AppContext, { blocks, planOf }: PostsParts): void {
  const { db } = ctx.database;
  const feedCache = createFeedCache(() => ctx.now().getTime());
  const unsubscribe = ctx.bus.subscribe((event) => feedCache.onEvent(event));
  app.addHook('onClose', async () => unsubscribe());
  // Blocks: a viewer who blocked someone (or was blocked) gets the shared answer
  // filtered for them; everyone else keeps the shared bytes and ETags.
  const hiddenFor = (request: FastifyRequest) => blocks.hiddenFor(request.auth?.userId);

  app.get(
    '/api/posts',
    { onRequest: app.authenticateOptional, schema: { response: { 200: postsFeedResponseSchema } } },
    async (request, reply) => {
      const viewerId = request.auth?.userId ?? null;
      const posts = await blocks.visibleTo(viewerId, await listLivePosts(db, viewerId));
      return reply.header('cache-control', 'no-store').send({ posts, serverTime: new Date().toISOString() });
    },
  );

  app.get(
    '/api/posts/viewport',
    {
      onRequest: app.authenticateOptional,
      // Sent already gzipped (or not) by this handler.
      compress: false,
      schema: { querystring: viewportQuerySchema, response: { 200: viewportResponseSchema } },
    },
    async (request, reply) => {
      const plan = planOf(request.url, request.query);
      const bytes = await feedCache.get(plan.key, plan.area, () => plan.load(db));
      const hidden = await hiddenFor(request);
      // Throttled or in emergency mode, browsers and proxies keep map answers longer.
      if (!hidden?.size) return sendBytes(request, reply, bytes, MAX_AGE_S * ctx.costs.cacheMultiplier());
      const shared: ViewportAnswer = JSON.parse(bytes.identity.toString('utf8'));
      // Their posts leave the clusters too: a count must not give away that they posted there.
      const clusters = shared.clusters.length
        ? clustersWithout(shared.clusters, await livePlacesOf(db, [...hidden]))
        : shared.clusters;
      const own = { ...shared, points: shared.points.filter((p) => !isHidden(hidden, p.userId)), clusters };
      return reply.header('cache-control', 'private, no-cache').send(own);
    },
  );

  app.get(
    '/api/posts/changes',
    {
      onRequest: app.authenticateOptional,
      schema: { querystring: changesQuerySchema, response: { 200: changesResponseSchema } },
      serializerCompiler: plainJson,
    },
    async (request, reply) => {
      const since = decodeCursor(request.query.since);
      const text = await getChanges(db, since, changesArea(request.query));
      const hidden = await hiddenFor(request);
      reply.header('cache-control', 'no-store');
      // PostgreSQL's JSON as is (the schema documents it), unless some authors are hidden from this viewer.
      if (!hidden?.size) return sendJsonText(reply, text);
      const changes: ChangesAnswer = JSON.parse(text);
      return reply.send({ ...changes, created: changes.created.filter((p) => !isHidden(hidden, p.userId)) });
    },
  );

  // A 100 m group's list: the cards of the live posts among `ids`, newest first.
  app.get(
    '/api/posts/cards',
    {
      onRequest: app.authenticateOptional,
      schema: { querystring: postCardsQuerySchema, response: { 200: postCardsResponseSchema } },
    },
    async (request, reply) => {
      const posts = await blocks.visibleTo(
        request.auth?.userId,
        await getLivePosts(db, request.query.ids, request.auth?.userId ?? null),
      );
      // The viewer's likes are in it: this browser only.
      return reply.header('cache-control', 'private, no-cache').send({ posts });
    },
  );
}
