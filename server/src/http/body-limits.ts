/**
 * Body sizes. The global limit (config.bodyLimit, 64 KiB by default) covers every JSON route:
 * the longest JSON body is a 1000-character message. Account routes take far less (the largest,
 * sign-up, is a 4 KiB challenge token and a few short fields), and their inputs are the ones
 * checked by the costliest patterns, so they get a small limit of their own. Multipart uploads
 * are not read by this limit: @fastify/multipart streams them with their own (media/upload.ts).
 * Over the limit: 413 `request_too_large` (http/error-handler.ts).
 */
import type { FastifyInstance } from 'fastify';

export const AUTH_PREFIX = '/api/auth/';
export const AUTH_BODY_LIMIT = 16 * 1024;

/** Must run before the routes are registered (an onRoute hook only sees routes added after it). */
export function installBodyLimits(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    // A limit the route sets itself wins.
    if (route.url.startsWith(AUTH_PREFIX) && route.bodyLimit === undefined) route.bodyLimit = AUTH_BODY_LIMIT;
  });
}
