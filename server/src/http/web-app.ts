/**
 * Serves the built SPA: hashed assets cached for a year, index.html revalidated, and
 * index.html for any client route (GET outside /api). Everything else is a JSON 404.
 * The build writes .br and .gz siblings (web/precompress.ts): they are sent to browsers that
 * accept them, with `Vary: Accept-Encoding`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@moodmap/core';
import { errorBody } from '../errors.ts';

export async function installWebApp(app: FastifyInstance, webDist: string | null): Promise<void> {
  const hasWeb = webDist !== null && existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: 'index.html',
      wildcard: true,
      preCompressed: true,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/media/');
    if (hasWeb && isPage) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return reply.status(404).send(errorBody('not_found', MESSAGES.not_found));
  });
}
