/** The auth routes of a new or forgotten account: sign-up, the e-mail links, the password reset. */
import {
  challengeResponseSchema,
  forgotPasswordSchema,
  recoverResponseSchema,
  resetPasswordBodySchema,
  signUpResponseSchema,
  signUpSchema,
  verifyLinkQuerySchema,
} from '@moodmap/core';
import type { TypedApp } from '../../http/typed-app.ts';
import { setRefreshCookie } from './refresh-cookie.ts';
import { meta, noContent, noStore, sendSession, sessionAnswer } from './route-answers.ts';
import type { AuthService } from './service.ts';

export function emailRoutes(app: TypedApp, auth: AuthService, publicUrl: string): void {
  app.get('/api/auth/challenge', { schema: { response: { 200: challengeResponseSchema } } }, async (_request, reply) =>
    reply.headers(noStore).send(await auth.challenge()),
  );

  app.post(
    '/api/auth/signup',
    { schema: { body: signUpSchema, response: { 201: signUpResponseSchema } } },
    async (request, reply) => {
      return reply.status(201).send(await auth.signUp(request.body, meta(request)));
    },
  );

  // The link of both e-mails; no referrer leaks the query's token. The confirmation link's
  // session goes into the cookie and the app lands on `/?type=signup`, no token in the address.
  // The recovery link keeps both tokens in the fragment (never sent to a server, never logged):
  // the reset screen sends them back with the new password, and the session that reset starts
  // is the one that gets the cookie.
  app.get(
    '/api/auth/verify',
    { schema: { querystring: verifyLinkQuerySchema, response: { 302: noContent } } },
    async (request, reply) => {
      const { location, refreshToken } = await auth.verifyLink(request.query.type, request.query.token);
      if (refreshToken) setRefreshCookie(request, reply, publicUrl, refreshToken);
      return reply.headers({ ...noStore, 'referrer-policy': 'no-referrer' }).redirect(location, 302);
    },
  );

  app.post(
    '/api/auth/recover',
    { schema: { body: forgotPasswordSchema, response: { 200: recoverResponseSchema } } },
    async (request) => {
      return auth.recover(request.body.email, meta(request));
    },
  );

  app.post(
    '/api/auth/reset-password',
    { schema: { body: resetPasswordBodySchema, response: sessionAnswer } },
    async (request, reply) => {
      return sendSession(publicUrl, request, reply, await auth.resetPassword(request.body, meta(request)));
    },
  );
}
