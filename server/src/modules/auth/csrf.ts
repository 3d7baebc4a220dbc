/**
 * CSRF protection of the two endpoints that act on the refresh cookie (refresh, logout).
 * The cookie is SameSite=Strict already; this also covers same-site but cross-origin pages
 * (another port or subdomain of the same site) and browsers without SameSite:
 *
 *   1. The request must carry `X-Requested-With: moodmap`. A cross-origin page can send a
 *      custom header only after a CORS preflight, and this server never answers one
 *      favourably; an HTML form cannot send headers at all.
 *   2. `Sec-Fetch-Site`, when the browser sends it, must be `same-origin` (the browser's own
 *      verdict, which a page cannot forge and a proxy between Vite and the API does not alter).
 *   3. Without it (older browsers), an `Origin` header, when present, must name this host.
 */
import type { FastifyRequest } from 'fastify';
import { CSRF_HEADER } from '@moodmap/core';
import { appError } from '../../errors.ts';

export function isSameOriginRequest(request: FastifyRequest): boolean {
  if (request.headers[CSRF_HEADER.name] !== CSRF_HEADER.value) return false;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    // `Origin: null` (sandboxed frames, opaque redirects) fails to parse: refused.
    return new URL(origin).host === request.host;
  } catch {
    return false;
  }
}

/** onRequest hook: 403 csrf_rejected before the body is even read. */
export async function requireSameOrigin(request: FastifyRequest): Promise<void> {
  if (!isSameOriginRequest(request)) throw appError(403, 'csrf_rejected');
}
