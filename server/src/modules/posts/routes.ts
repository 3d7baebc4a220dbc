/**
 * Posts API: the live feed, the map's viewport and changes feeds (feed-routes.ts), my active
 * post, create and delete (post-routes.ts), uploads for a post (upload-routes.ts). The parts they
 * share (land decision, approximation, block rule, viewport plans) come from the composition root.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { feedRoutes } from './feed-routes.ts';
import type { PostsParts } from './parts.ts';
import { postRoutes } from './post-routes.ts';
import { uploadRoutes } from './upload-routes.ts';

export default async function postsRoutes(
  root: FastifyInstance,
  { ctx, parts }: { ctx: AppContext; parts: PostsParts },
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  feedRoutes(app, ctx, parts);
  postRoutes(app, ctx, parts);
  uploadRoutes(app, ctx);
}
