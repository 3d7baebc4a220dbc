/** What the auth routes answer alike: the request's meta, no caching, and a session without its refresh token. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authSessionBodySchema } from '@moodmap/core';
import type { RequestMeta, SessionResponse } from './flow-support.ts';
import { setRefreshCookie } from './refresh-cookie.ts';

/** 204 and redirects: no body. */
export const noContent = z.null();

export const meta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/** Tokens must not linger in caches or proxies. */
export const noStore = { 'cache-control': 'no-store' };

/** Routes that start or rotate a session answer the session without its refresh token. */
export const sessionAnswer = { 200: authSessionBodySchema };

/** The session's answer without its refresh token, which goes into the cookie instead. */
export function sendSession(publicUrl: string, request: FastifyRequest, reply: FastifyReply, session: SessionResponse) {
  const { refreshToken, ...body } = session;
  setRefreshCookie(request, reply, publicUrl, refreshToken);
  return reply.headers(noStore).send(body);
}
