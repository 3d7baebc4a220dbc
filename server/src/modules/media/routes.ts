/**
 * Serves the local media store at GET /media/<key> (with S3 the bucket or its CDN serves it)
 * through @fastify/static, which answers HEAD, conditional and single byte-range requests (the
 * audio player's seeking). Only keys the store could have written and only the types we produce
 * are served: anything else — a directory, a traversal attempt, a temporary file, a symbolic
 * link — is the JSON 404, checked before the file is opened. Files never change under a key,
 * hence a year of immutable caching; `nosniff` and a sandboxing CSP keep a browser from ever
 * treating one as a page.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, mediaKeyParamsSchema } from '@moodmap/core';
import { LOCAL_MEDIA_PREFIX } from '../../adapters/storage/local.ts';
import { isValidKey, MEDIA_CACHE_CONTROL, type MediaStorage } from '../../adapters/storage/types.ts';
import { errorBody } from '../../errors.ts';

export interface MediaRoutesOptions {
  /** The media store; its directory is served when it is the local one. */
  storage?: MediaStorage & { dir?: string };
  /** Directory to serve; defaults to the local store's. */
  dir?: string;
}

/** The only types served, by extension. */
export const MEDIA_CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webm: 'audio/webm',
};

const typeOf = (file: string): string | undefined =>
  MEDIA_CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1).toLowerCase()];

function notFound(reply: FastifyReply) {
  return reply.status(404).header('cache-control', 'no-cache').send(errorBody('not_found', MESSAGES.not_found));
}

export default async function mediaRoutes(app: FastifyInstance, options: MediaRoutesOptions) {
  const dir = options.dir ?? options.storage?.dir;
  if (!dir) return;
  const root = path.resolve(dir);

  // This plugin is encapsulated: the hook guards only the routes @fastify/static adds below.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const params = mediaKeyParamsSchema.safeParse(request.params);
    const key = params.success ? params.data['*'] : '';
    if (!isValidKey(key) || !typeOf(key)) return notFound(reply);
    const file = path.resolve(root, ...key.split('/'));
    if (!file.startsWith(root + path.sep)) return notFound(reply);
    // lstat: a symbolic link planted in the store is not followed out of it; no directory either.
    const stat = await lstat(file).catch(() => null);
    if (!stat?.isFile()) return notFound(reply);
  });

  // An unsatisfiable range is refused by send with its Content-Range (`bytes */<size>`) on the
  // error; the API's error handler writes the body, this keeps the header.
  app.addHook('onError', async (_request, reply, error: Error & { headers?: Record<string, string> }) => {
    if (error.headers) reply.headers(error.headers);
  });

  await app.register(fastifyStatic, {
    root,
    prefix: `${LOCAL_MEDIA_PREFIX}/`,
    // The web app's registration decorates the reply; this one only serves its route.
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    acceptRanges: true,
    // Our own Cache-Control (MEDIA_CACHE_CONTROL) rather than send's.
    cacheControl: false,
    setHeaders(reply, file) {
      reply
        .header('content-type', typeOf(file) ?? 'application/octet-stream')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', MEDIA_CACHE_CONTROL)
        .header('content-security-policy', "default-src 'none'; sandbox");
    },
  });
}
