/**
 * /api/auth/* — the account API the web app signs in with (issue 3). Bodies are validated with
 * core's zod schemas (French catalogue messages); the flows are in service.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MESSAGES, forgotPasswordSchema, signInSchema, signUpSchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { requireUser } from './guard.ts';
import { createAuthService } from './service.ts';

/** Validation failures that are attacks, not typos: counted as security violations. */
const CRITICAL_MESSAGES = new Set<string>([MESSAGES.email_critical, MESSAGES.password_critical, MESSAGES.first_name_critical, MESSAGES.last_name_critical]);

const opaqueToken = z.string().min(1).max(4096);
const refreshBody = z.object({ refreshToken: opaqueToken });
const resetBody = z.object({
  accessToken: z.string({ error: MESSAGES.reset_tokens_missing }).min(1, MESSAGES.reset_tokens_missing).max(4096),
  refreshToken: z.string({ error: MESSAGES.reset_tokens_missing }).min(1, MESSAGES.reset_tokens_missing).max(4096),
  // The rules are checked by the service, which answers weak_password (spec §8 reset screen).
  password: z.string({ error: MESSAGES.auth_fields_required }).max(1024),
});
const passwordBody = z.object({ password: z.string({ error: MESSAGES.auth_fields_required }).max(1024) });
const verifyQuery = z.object({ type: z.string().max(20).optional(), token: z.string().max(4096).optional() });

const meta = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });
/** Tokens must not linger in caches or proxies. */
const noStore = { 'cache-control': 'no-store' };

export default async function authRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const auth = createAuthService(ctx, app.log);
  app.addHook('onClose', () => auth.flush());

  app.addHook('onError', async (request, _reply, error) => {
    const validation = (error as { validation?: Array<{ message?: string }> }).validation;
    if (validation?.some((v) => v.message && CRITICAL_MESSAGES.has(v.message))) {
      await auth.violation(meta(request), 'malicious_input', `Saisie dangereuse refusée sur ${request.routeOptions.url ?? request.url}`);
    }
  });

  app.get('/api/auth/challenge', async (_request, reply) => reply.headers(noStore).send(await auth.challenge()));

  app.post('/api/auth/signup', { schema: { body: signUpSchema } }, async (request, reply) => {
    return reply.status(201).send(await auth.signUp(request.body, meta(request)));
  });

  // The link of both e-mails. Answers with a redirect into the app, tokens in the fragment
  // (never sent to a server, never logged); no referrer leaks the query's token.
  app.get('/api/auth/verify', { schema: { querystring: verifyQuery } }, async (request, reply) => {
    const location = await auth.verifyLink(request.query.type, request.query.token);
    return reply.headers({ ...noStore, 'referrer-policy': 'no-referrer' }).redirect(location, 302);
  });

  app.post('/api/auth/login', { schema: { body: signInSchema } }, async (request, reply) => {
    return reply.headers(noStore).send(await auth.signIn(request.body, meta(request)));
  });

  app.post('/api/auth/refresh', { schema: { body: refreshBody } }, async (request, reply) => {
    return reply.headers(noStore).send(await auth.refresh(request.body.refreshToken, meta(request)));
  });

  app.post('/api/auth/logout', { schema: { body: refreshBody } }, async (request, reply) => {
    await auth.signOut(request.body.refreshToken);
    return reply.status(204).send();
  });

  app.get('/api/auth/session', { onRequest: app.authenticate }, async (request, reply) => {
    return reply.headers(noStore).send(await auth.session(requireUser(request)));
  });

  app.post('/api/auth/recover', { schema: { body: forgotPasswordSchema } }, async (request) => {
    return auth.recover(request.body.email, meta(request));
  });

  app.post('/api/auth/reset-password', { schema: { body: resetBody } }, async (request, reply) => {
    return reply.headers(noStore).send(await auth.resetPassword(request.body, meta(request)));
  });

  app.post('/api/auth/password', { onRequest: app.authenticate, schema: { body: passwordBody } }, async (request, reply) => {
    return reply.headers(noStore).send(await auth.updatePassword(requireUser(request), request.body.password, meta(request)));
  });

  app.get('/api/auth/role', { onRequest: app.authenticate }, async (request, reply) => {
    return reply.headers(noStore).send(await auth.role(requireUser(request), meta(request)));
  });
}
