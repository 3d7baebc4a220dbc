/**
 * Serves the local media store at GET /media/<key> (with S3 the bucket or its CDN serves it).
 * Only keys the store could have written and only the types we produce are served: anything
 * else — a directory, a traversal attempt, a temporary file — is the JSON 404. Files never
 * change under a key, hence a year of immutable caching; `nosniff` and a sandboxing CSP keep
 * a browser from ever treating one as a page. Single byte ranges are honoured for the audio
 * player's seeking.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { MESSAGES, mediaKeyParamsSchema, type MediaKeyParams } from '@moodmap/core';
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

function notFound(reply: FastifyReply) {
  return reply.status(404).header('cache-control', 'no-cache').send(errorBody('not_found', MESSAGES.not_found));
}

/** A single `bytes=a-b` range within `size`; 'invalid' when unsatisfiable; null to send everything. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'invalid' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null; // several ranges or another unit: the whole file is a valid answer
  const [, a, b] = match;
  if (a === '' && b === '') return 'invalid';
  let start: number;
  let end: number;
  if (a === '') {
    start = Math.max(0, size - Number(b));
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

export default async function mediaRoutes(app: FastifyInstance, options: MediaRoutesOptions) {
  const dir = options.dir ?? options.storage?.dir;
  if (!dir) return;
  const root = path.resolve(dir);
  // O_NOFOLLOW: a symbolic link planted in the store is not followed out of it.
  const openFlags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

  const serve = async (request: FastifyRequest<{ Params: MediaKeyParams }>, reply: FastifyReply) => {
    const key = request.params['*'];
    const type = MEDIA_CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1).toLowerCase()];
    if (!isValidKey(key) || !type) return notFound(reply);
    const file = path.resolve(root, ...key.split('/'));
    if (!file.startsWith(root + path.sep)) return notFound(reply);

    let handle: FileHandle;
    try {
      handle = await open(file, openFlags);
    } catch {
      return notFound(reply);
    }
    let keepOpen = false;
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return notFound(reply);
      const range = parseRange(request.headers.range, stat.size);
      if (range === 'invalid') {
        return reply.status(416).header('content-range', `bytes */${stat.size}`).send(errorBody('bad_request', MESSAGES.bad_request));
      }
      const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
      reply
        .header('content-type', type)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', MEDIA_CACHE_CONTROL)
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('accept-ranges', 'bytes')
        .header('etag', etag)
        .header('last-modified', stat.mtime.toUTCString());
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();

      const start = range?.start ?? 0;
      const end = range?.end ?? stat.size - 1;
      if (range) reply.status(206).header('content-range', `bytes ${start}-${end}/${stat.size}`);
      reply.header('content-length', String(stat.size === 0 ? 0 : end - start + 1));
      if (request.method === 'HEAD' || stat.size === 0) return reply.send();
      keepOpen = true;
      return reply.send(handle.createReadStream({ start, end, autoClose: true }));
    } finally {
      if (!keepOpen) await handle.close();
    }
  };

  // Also served by a bare Fastify (tests): the plugin brings its schema's compiler.
  app.setValidatorCompiler(validatorCompiler);
  // GET and HEAD declared together: Fastify's automatic HEAD route would read the whole file.
  app.route({ method: ['GET', 'HEAD'], url: `${LOCAL_MEDIA_PREFIX}/*`, schema: { params: mediaKeyParamsSchema }, handler: serve });
}
