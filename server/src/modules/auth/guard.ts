/**
 * The auth guard every module uses. A route that needs a signed-in caller:
 *
 *   app.post('/api/x', { onRequest: app.authenticate }, async (request) => {
 *     const { userId } = requireUser(request);
 *   });
 *
 * (onRequest, so a caller who is not signed in gets the 401 before any body validation.)
 * `app.authenticate` answers 401 not_authenticated ('User not authenticated') for a missing,
 * forged or expired access token, or one whose session was revoked. `app.authenticateOptional`
 * is for public routes that personalise when they can: a missing or bad token just means a
 * visitor (`request.auth` null).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../../errors.ts';
import type { Identity } from './sessions.ts';

export type AuthIdentity = Identity;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/** The signed-in caller; throws the 401 when the route ran without `app.authenticate`'s success. */
export function requireUser(request: FastifyRequest): AuthIdentity {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

export function installAuthGuard(
  app: FastifyInstance,
  identify: (token: string) => Promise<AuthIdentity | null>,
): void {
  app.decorateRequest('auth', null);

  const resolve = async (request: FastifyRequest): Promise<AuthIdentity | null> => {
    const token = bearerToken(request);
    if (!token || token.length > 4096) return null;
    return identify(token);
  };

  app.decorate('authenticate', async (request: FastifyRequest, _reply: FastifyReply) => {
    request.auth = await resolve(request);
    if (!request.auth) throw unauthorized();
  });
  app.decorate('authenticateOptional', async (request: FastifyRequest, _reply: FastifyReply) => {
    request.auth = await resolve(request);
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate` / `app.authenticateOptional`. */
    auth: AuthIdentity | null;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    authenticateOptional: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}
