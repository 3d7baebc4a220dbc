/** The auth routes of a session: sign-in, refresh, sign-out, and what the signed-in user reads or changes. */
import { authUserResponseSchema, passwordChangeBodySchema, roleResponseSchema, signInSchema } from '@moodmap/core';
import { appError } from '../../errors.ts';
import type { TypedApp } from '../../http/typed-app.ts';
import { requireSameOrigin } from './csrf.ts';
import { requireUser } from './guard.ts';
import { clearRefreshCookie, readRefreshCookie } from './refresh-cookie.ts';
import { meta, noContent, noStore, sendSession, sessionAnswer } from './route-answers.ts';
import type { AuthService } from './service.ts';

export function sessionRoutes(app: TypedApp, auth: AuthService, publicUrl: string): void {
  app.post('/api/auth/login', { schema: { body: signInSchema, response: sessionAnswer } }, async (request, reply) => {
    return sendSession(publicUrl, request, reply, await auth.signIn(request.body, meta(request)));
  });

  // No body: the token is the cookie's. Not accepted from the body either, so that no client
  // of ours ever needs it within a script's reach.
  app.post(
    '/api/auth/refresh',
    { onRequest: requireSameOrigin, schema: { response: sessionAnswer } },
    async (request, reply) => {
      const refreshToken = readRefreshCookie(request);
      if (!refreshToken) throw appError(401, 'session_expired');
      return sendSession(publicUrl, request, reply, await auth.refresh(refreshToken, meta(request)));
    },
  );

  app.post(
    '/api/auth/logout',
    { onRequest: requireSameOrigin, schema: { response: { 204: noContent } } },
    async (request, reply) => {
      const refreshToken = readRefreshCookie(request);
      if (refreshToken) await auth.signOut(refreshToken, meta(request));
      clearRefreshCookie(request, reply, publicUrl);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/auth/session',
    { onRequest: app.authenticate, schema: { response: { 200: authUserResponseSchema } } },
    async (request, reply) => {
      return reply.headers(noStore).send(await auth.session(requireUser(request)));
    },
  );

  app.post(
    '/api/auth/password',
    { onRequest: app.authenticate, schema: { body: passwordChangeBodySchema, response: sessionAnswer } },
    async (request, reply) => {
      return sendSession(
        publicUrl,
        request,
        reply,
        await auth.updatePassword(requireUser(request), request.body.password, meta(request)),
      );
    },
  );

  app.get(
    '/api/auth/role',
    { onRequest: app.authenticate, schema: { response: { 200: roleResponseSchema } } },
    async (request, reply) => {
      return reply.headers(noStore).send(await auth.role(requireUser(request), meta(request)));
    },
  );
}
