/**
 * Profiles API: anyone reads a public profile with the user's live posts; the signed-in
 * owner edits nickname and bio, and replaces or removes the photo. Every rule of the nickname,
 * bio and photo (docs/product.md, Profiles) is checked here, whatever the browser did.
 *
 *   GET    /api/profiles/:id        → { profile: PublicProfile, posts: PostDto[] }
 *   PATCH  /api/profiles/me         { nickname?, bio? } → { user }   (unknown keys: 400)
 *   POST   /api/profiles/me/photo   multipart `file`    → { user }
 *   DELETE /api/profiles/me/photo                       → { user }
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  authUserResponseSchema,
  profileIdParamsSchema,
  publicProfileResponseSchema,
  updateProfileSchema,
  type ProfileUpdatedEvent,
} from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { badRequest, validationError } from '../../errors.ts';
import { enforce } from '../../policies/actor.ts';
import { mayReadAs } from '../../policies/blocks.ts';
import { requireUser } from '../auth/guard.ts';
import { blockRule } from '../blocks/rule.ts';
import { deleteMediaUrls, readUpload, storeImage } from '../media/index.ts';
import { getPublicProfile, ownAvatarUrls, ownerView, replacePhoto, updateProfile } from './service.ts';

/** The owner's view carries private fields: never cached by a browser or a proxy. */
const noStore = { 'cache-control': 'no-store' };

/** Every edit answers the owner's fresh view, the same as /api/auth/session's. */
const userAnswer = { response: { 200: authUserResponseSchema } };

export default async function profilesRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const user = (userId: string) => ownerView(db, userId, ctx.config.adminEmail);
  const blocks = blockRule(db, ctx.bus);

  /** Best effort: the change is committed whether or not the maps hear of it (`about`: not the owner's blocked pairs). */
  const announce = (request: FastifyRequest, data: ProfileUpdatedEvent['data']) =>
    ctx.bus
      .publish({ type: 'profile.updated', data, about: [data.userId] })
      .catch((error) => request.log.error({ err: error }, 'publish failed'));

  /** Replaced photos leave the store once the new ones are committed; a failure only leaves files behind. */
  const dropFiles = (request: FastifyRequest, urls: string[]) =>
    deleteMediaUrls(ctx.storage, ownAvatarUrls(ctx.storage, urls)).catch((error) =>
      request.log.warn({ err: error }, 'media cleanup failed'),
    );

  app.get(
    '/api/profiles/:id',
    {
      onRequest: app.authenticateOptional,
      schema: { params: profileIdParamsSchema, response: { 200: publicProfileResponseSchema } },
    },
    async (request, reply) => {
      const viewerId = request.auth?.userId ?? null;
      // A blocked pair reads each other's profile as unknown.
      enforce(mayReadAs(await blocks.hiddenFor(viewerId), request.params.id.toLowerCase(), 'profile_not_found'));
      const body = await getPublicProfile(db, request.params.id, viewerId);
      // Posts carry the viewer's own likes.
      return reply.headers(noStore).send(body);
    },
  );

  // attachValidation: a refused body reaches the handler, because a dangerous value is also a
  // security event. An absent body is an empty edit.
  app.patch(
    '/api/profiles/me',
    {
      config: { write: 'profile' },
      onRequest: app.authenticate,
      attachValidation: true,
      schema: { body: updateProfileSchema.nullish(), ...userAnswer },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      if (request.validationError) {
        const message = request.validationError.validation?.[0]?.message;
        if (message === MESSAGES.content_forbidden) {
          await ctx.logSecurityEvent({
            userId,
            eventType: 'malicious_input',
            description: 'Saisie dangereuse refusée sur /api/profiles/me',
            severity: 'high',
            ip: request.ip,
          });
        }
        throw validationError(message);
      }
      const result = await updateProfile(db, userId, request.body ?? {}, ctx.now());
      if (result.nicknameChanged)
        await announce(request, { userId, username: result.username, photoUrl: result.photoUrl });
      return reply.headers(noStore).send({ user: await user(userId) });
    },
  );

  // Multipart: one `file` part, read and checked by readUpload (no JSON body to validate).
  app.post(
    '/api/profiles/me/photo',
    { config: { write: 'profile' }, onRequest: app.authenticate, schema: userAnswer },
    async (request, reply) => {
      const { userId } = requireUser(request);
      await ctx.limits.consume('file_upload', `user:${userId}`, {
        message: 'upload_rate_limited',
        userId,
        ip: request.ip,
      });
      const { file } = await readUpload(request, 'avatar', { required: true, field: 'file' });
      if (!file) throw badRequest('upload_failed'); // readUpload's own refusal (required: true)
      // Magic number, pixel limit, re-encoded square 512 + 128 thumb: EXIF and GPS are gone.
      const stored = await storeImage(ctx.storage, file.body, 'avatar');
      const fresh = [stored.url, stored.thumb?.url].filter((u): u is string => Boolean(u));
      let change;
      try {
        change = await replacePhoto(db, userId, { url: stored.url, thumbUrl: stored.thumb?.url ?? null });
      } catch (error) {
        await dropFiles(request, fresh);
        throw error;
      }
      await dropFiles(request, change.previous);
      await announce(request, { userId, username: change.username, photoUrl: stored.url });
      return reply.headers(noStore).send({ user: await user(userId) });
    },
  );

  app.delete(
    '/api/profiles/me/photo',
    { config: { write: 'remove' }, onRequest: app.authenticate, schema: userAnswer },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const change = await replacePhoto(db, userId, null);
      await dropFiles(request, change.previous);
      if (change.previous.length > 0) await announce(request, { userId, username: change.username, photoUrl: null });
      return reply.headers(noStore).send({ user: await user(userId) });
    },
  );
}
