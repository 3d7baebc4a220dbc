/**
 * The refresh token travels in a cookie the page's scripts cannot read:
 * `HttpOnly; SameSite=Strict; Path=/api/auth` (the path covers /api/auth/refresh and
 * /api/auth/logout, nothing else of the API or the app receives it), plus `Secure` whenever
 * the browser will take it:
 *   - the request came over https (directly, or through a proxy trusted with TRUST_PROXY),
 *   - or PUBLIC_URL is https (a TLS proxy in front that we were not told to trust),
 *   - or the host is loopback (localhost, 127.x, ::1): browsers treat http://localhost as a
 *     secure context and accept Secure cookies there, but not on http://192.168.x.y, where a
 *     Secure cookie would be dropped and nobody could stay signed in. On such a LAN address
 *     the cookie goes without Secure; HttpOnly and SameSite still apply.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { REFRESH_TOKEN_TTL_MS } from './sessions.ts';

export const REFRESH_COOKIE = 'moodmap_refresh';
export const REFRESH_COOKIE_PATH = '/api/auth';

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    host === '[::1]' ||
    host === '::1'
  );
}

function options(request: FastifyRequest, publicUrl: string): CookieSerializeOptions {
  const secure = request.protocol === 'https' || publicUrl.startsWith('https:') || isLoopbackHost(request.hostname);
  return { httpOnly: true, secure, sameSite: 'strict', path: REFRESH_COOKIE_PATH };
}

export function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, publicUrl: string, token: string): void {
  reply.setCookie(REFRESH_COOKIE, token, {
    ...options(request, publicUrl),
    maxAge: Math.floor(REFRESH_TOKEN_TTL_MS / 1000),
  });
}

export function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply, publicUrl: string): void {
  reply.clearCookie(REFRESH_COOKIE, options(request, publicUrl));
}

export function readRefreshCookie(request: FastifyRequest): string | null {
  const value = request.cookies[REFRESH_COOKIE];
  return value && value.length <= 4096 ? value : null;
}
