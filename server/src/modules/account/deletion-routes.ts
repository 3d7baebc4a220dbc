/**
 * `POST /api/account/delete` { password }: the signed-in member deletes their account at once
 * (deletion.ts). The password is checked like a sign-in, under the sign-in limit of the
 * caller's address. After the commit: their sockets end, their posts leave every map, the
 * people they wrote to hear that those conversations are closed, their files leave the media
 * store.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGE_EVENTS,
  accountDeletionSchema,
  type ConversationClosedEvent,
  type PostDeletedEvent,
} from '@moodmap/core';
import type { RealtimeEvent } from '../../adapters/bus/types.ts';
import { ipKey } from '../../adapters/rate-limit/limiter.ts';
import type { AppContext } from '../../context.ts';
import { appError, unauthorized } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { publishSessionsRevoked } from '../auth/session-events.ts';
import { findUserById } from '../auth/users.ts';
import { deleteMediaUrls } from '../media/index.ts';
import type { DeletedPost } from '../posts/data.ts';
import { eraseAccount, type ClosedConversation } from './deletion.ts';

const noContent = z.undefined();

/** The post's map event, as a normal delete sends it: to the views holding it. */
function deletedEvent(
  post: DeletedPost,
): PostDeletedEvent & { at: { latitude: number; longitude: number }; about: string[] } {
  const { id, latitude, longitude } = post;
  return { type: 'post.deleted', data: { id, latitude, longitude }, at: { latitude, longitude }, about: [post.userId] };
}

/** To the one left in a conversation: it stays, read-only, its other side 'Compte supprimé'. */
function closedEvent({ conversationId, recipientId }: ClosedConversation): RealtimeEvent {
  const data: ConversationClosedEvent = { conversationId };
  return { type: MESSAGE_EVENTS.closed, data, targets: [recipientId] };
}

export default async function accountDeletionRoutes(root: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;

  app.post(
    '/api/account/delete',
    {
      config: { write: 'remove' },
      onRequest: app.authenticate,
      schema: { body: accountDeletionSchema, response: { 204: noContent } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      await ctx.limits.consume('login', ipKey(request.ip), { ip: request.ip, userId });
      const user = await findUserById(db, userId);
      if (!user) throw unauthorized();
      if (!(await verifyPassword(user.passwordHash, request.body.password))) {
        await ctx.logSecurityEvent({
          userId,
          ip: request.ip,
          eventType: 'account_delete_failed',
          description: 'Suppression du compte refusée : mot de passe incorrect',
          severity: 'medium',
        });
        throw appError(403, 'account_delete_wrong_password');
      }

      const erased = await eraseAccount(db, userId, user.email);
      const log = request.log;
      await ctx.logSecurityEvent({
        targetId: erased.pseudonym,
        ip: request.ip,
        eventType: 'account_deleted',
        description: 'Compte supprimé par son titulaire',
        severity: 'medium',
      });
      await publishSessionsRevoked(ctx.bus, userId, erased.sessionIds).catch((err) =>
        log.error({ err }, 'session end not announced'),
      );
      for (const post of erased.posts)
        await ctx.bus.publish(deletedEvent(post)).catch((err) => log.error({ err }, 'publish failed'));
      await ctx.bus
        .publishMany(erased.closedConversations.map(closedEvent))
        .catch((err) => log.error({ err }, 'publish failed'));
      await deleteMediaUrls(ctx.storage, erased.mediaUrls).catch((err) => log.warn({ err }, 'media cleanup failed'));
      return reply.status(204).send();
    },
  );
}
