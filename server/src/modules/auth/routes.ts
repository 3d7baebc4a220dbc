/**
 * /api/auth/* — the account API the web app signs in with. Bodies are validated with
 * core's zod schemas (French catalogue messages); the flows are in service.ts.
 *
 * The refresh token never appears in a JSON answer: every route that starts or rotates a
 * session puts it in the HttpOnly cookie (refresh-cookie.ts), and refresh and logout read it
 * from there, behind the CSRF check (csrf.ts). The one exception is the reset-password link,
 * whose recovery tokens ride in the URL fragment to the reset screen (see verifyLink).
 */
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGES, authSessionBodySchema, authUserResponseSchema, challengeResponseSchema, forgotPasswordSchema, passwordChangeBodySchema,
  recoverResponseSchema, resetPasswordBodySchema, roleResponseSchema, signInSchema, signUpResponseSchema, signUpSchema, verifyLinkQuerySchema,
} from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { fail } from '../../errors.ts';
import { requireSameOrigin } from './csrf.ts';
import { requireUser } from './guard.ts';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie.ts';
import { createAuthService, type SessionResponse } from './service.ts';

/** Validation failures that are attacks, not typos: counted as security violations. */
const CRITICAL_MESSAGES = new Set<string>([MESSAGES.email_critical, MESSAGES.password_critical, MESSAGES.first_name_critical, MESSAGES.last_name_critical]);

/** 204 and redirects: no body. */
const noContent = z.null();

const meta = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });
/** Tokens must not linger in caches or proxies. */
const noStore = { 'cache-control': 'no-store' };

export default async function authRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // Registered here, not on the root: only /api/auth/* parses and sets cookies.
  await root.register(cookie);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const auth = createAuthService(ctx, app.log);
  const { publicUrl } = ctx.config;

  /** The session's answer without its refresh token, which goes into the cookie instead. */
  const sendSession = (request: FastifyRequest, reply: FastifyReply, session: SessionResponse) => {
    const { refreshToken, ...body } = session;
    setRefreshCookie(request, reply, publicUrl, refreshToken);
    return reply.headers(noStore).send(body);
  };
  app.addHook('onClose', () => auth.flush());

  app.addHook('onError', async (request, _reply, error) => {
    const validation = (error as { validation?: Array<{ message?: string }> }).validation;
    if (validation?.some((v) => v.message && CRITICAL_MESSAGES.has(v.message))) {
      await auth.violation(meta(request), 'malicious_input', `Saisie dangereuse refusée sur ${request.routeOptions.url ?? request.url}`);
    }
  });

  /** Routes that start or rotate a session answer the session without its refresh token. */
  const sessionAnswer = { 200: authSessionBodySchema };

  app.get('/api/auth/challenge', { schema: { response: { 200: challengeResponseSchema } } }, async (_request, reply) => reply.headers(noStore).send(await auth.challenge()));

  app.post('/api/auth/signup', { schema: { body: signUpSchema, response: { 201: signUpResponseSchema } } }, async (request, reply) => {
    return reply.status(201).send(await auth.signUp(request.body, meta(request)));
  });

  // The link of both e-mails; no referrer leaks the query's token. The confirmation link's
  // session goes into the cookie and the app lands on `/?type=signup`, no token in the address.
  // The recovery link keeps both tokens in the fragment (never sent to a server, never logged):
  // the reset screen sends them back with the new password, and the session that reset starts
  // is the one that gets the cookie.
  app.get('/api/auth/verify', { schema: { querystring: verifyLinkQuerySchema, response: { 302: noContent } } }, async (request, reply) => {
    const { location, refreshToken } = await auth.verifyLink(request.query.type, request.query.token);
    if (refreshToken) setRefreshCookie(request, reply, publicUrl, refreshToken);
    return reply.headers({ ...noStore, 'referrer-policy': 'no-referrer' }).redirect(location, 302);
  });

  app.post('/api/auth/login', { schema: { body: signInSchema, response: sessionAnswer } }, async (request, reply) => {
    return sendSession(request, reply, await auth.signIn(request.body, meta(request)));
  });

  // No body: the token is the cookie's. Not accepted from the body either, so that no client
  // of ours ever needs it within a script's reach.
  app.post('/api/auth/refresh', { onRequest: requireSameOrigin, schema: { response: sessionAnswer } }, async (request, reply) => {
    const refreshToken = readRefreshCookie(request);
    if (!refreshToken) throw fail(401, 'session_expired');
    return sendSession(request, reply, await auth.refresh(refreshToken, meta(request)));
  });

  app.post('/api/auth/logout', { onRequest: requireSameOrigin, schema: { response: { 204: noContent } } }, async (request, reply) => {
    const refreshToken = readRefreshCookie(request);
    if (refreshToken) await auth.signOut(refreshToken, meta(request));
    clearRefreshCookie(request, reply, publicUrl);
    return reply.status(204).send(null);
  });

  app.get('/api/auth/session', { onRequest: app.authenticate, schema: { response: { 200: authUserResponseSchema } } }, async (request, reply) => {
    return reply.headers(noStore).send(await auth.session(requireUser(request)));
  });

  app.post('/api/auth/recover', { schema: { body: forgotPasswordSchema, response: { 200: recoverResponseSchema } } }, async (request) => {
    return auth.recover(request.body.email, meta(request));
  });

  app.post('/api/auth/reset-password', { schema: { body: resetPasswordBodySchema, response: sessionAnswer } }, async (request, reply) => {
    return sendSession(request, reply, await auth.resetPassword(request.body, meta(request)));
  });

  app.post('/api/auth/password', { onRequest: app.authenticate, schema: { body: passwordChangeBodySchema, response: sessionAnswer } }, async (request, reply) => {
    return sendSession(request, reply, await auth.updatePassword(requireUser(request), request.body.password, meta(request)));
  });

  app.get('/api/auth/role', { onRequest: app.authenticate, schema: { response: { 200: roleResponseSchema } } }, async (request, reply) => {
    return reply.headers(noStore).send(await auth.role(requireUser(request), meta(request)));
  });
}
