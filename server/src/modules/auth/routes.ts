/**
 * /api/auth/* — the account API the web app signs in with. Bodies are validated with
 * core's zod schemas (French catalogue messages); the flows are in service.ts, the routes in
 * email-routes.ts and session-routes.ts.
 *
 * The refresh token never appears in a JSON answer: every route that starts or rotates a
 * session puts it in the HttpOnly cookie (refresh-cookie.ts), and refresh and logout read it
 * from there, behind the CSRF check (csrf.ts). The one exception is the reset-password link,
 * whose recovery tokens ride in the URL fragment to the reset screen (see verifyLink).
 */
import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MESSAGES } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { emailRoutes } from './email-routes.ts';
import { meta } from './route-answers.ts';
import { createAuthService } from './service.ts';
import { sessionRoutes } from './session-routes.ts';

/** Validation failures that are attacks, not typos: counted as security violations. */
const CRITICAL_MESSAGES = new Set<string>([
  MESSAGES.email_critical,
  MESSAGES.password_critical,
  MESSAGES.first_name_critical,
  MESSAGES.last_name_critical,
]);

export default async function authRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // Registered here, not on the root: only /api/auth/* parses and sets cookies.
  await root.register(cookie);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const auth = createAuthService(ctx, app.log);
  app.addHook('onClose', () => auth.flush());

  app.addHook('onError', async (request, _reply, error) => {
    const validation = (error as { validation?: Array<{ message?: string }> }).validation;
    if (validation?.some((v) => v.message && CRITICAL_MESSAGES.has(v.message))) {
      await auth.violation(
        meta(request),
        'malicious_input',
        `Saisie dangereuse refusée sur ${request.routeOptions.url ?? request.url}`,
      );
    }
  });

  emailRoutes(app, auth, ctx.config.publicUrl);
  sessionRoutes(app, auth, ctx.config.publicUrl);
}
