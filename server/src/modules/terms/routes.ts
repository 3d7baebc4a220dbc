/** `GET /api/terms` (the version in force, the one announced, the caller's acceptance) and `POST /api/terms/accept`. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { acceptTermsResponseSchema, acceptTermsSchema, termsStatusResponseSchema } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/guard.ts';
import { acceptTerms, termsStatus } from './service.ts';

export default async function termsRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;

  app.get(
    '/api/terms',
    { onRequest: app.authenticateOptional, schema: { response: { 200: termsStatusResponseSchema } } },
    async (request, reply) => {
      return reply
        .header('cache-control', 'private, no-cache')
        .send(await termsStatus(db, ctx.now(), request.auth?.userId ?? null));
    },
  );

  app.post(
    '/api/terms/accept',
    { onRequest: app.authenticate, schema: { body: acceptTermsSchema, response: { 200: acceptTermsResponseSchema } } },
    async (request) => {
      return acceptTerms(db, ctx.now(), requireUser(request).userId, request.body.version);
    },
  );
}
