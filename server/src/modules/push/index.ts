/**
 * The Web Push feature: its routes, and the notifications sent when a message, a
 * comment or a moderation outcome is published on the bus.
 *
 * Only the events this instance publishes are turned into pushes (`bus.observeOwn`). A bus
 * subscription would see every instance's events (PostgreSQL LISTEN/NOTIFY delivers to all of
 * them), and each instance would push the same message once: N instances, N notifications.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { blockRelations } from '../blocks/relations.ts';
import { systemResolve } from './address.ts';
import { knownDevices } from './known-devices.ts';
import { noticesFor } from './notices.ts';
import { pushRoutes } from './routes.ts';
import { createPushSender } from './sender.ts';
import { loadVapidKeys } from './vapid.ts';

export default async function pushFeature(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const vapid = await loadVapidKeys(ctx.config);
  const devices = knownDevices(ctx.database.db, ctx.bus);
  const sender = createPushSender(ctx.database.db, devices, vapid, app.log, {
    resolve: systemResolve,
    extraOrigins: ctx.config.pushExtraOrigins,
  });
  const deps = { db: ctx.database.db, relations: blockRelations(ctx.database.db, ctx.bus) };
  const stop = ctx.bus.observeOwn((event) => {
    // After the publisher's own work: the answer to its request never waits on a push.
    setImmediate(() => sender.notify(noticesFor(event, deps)));
  });
  app.addHook('onClose', () => {
    stop();
    devices.stop();
    return sender.drain();
  });
  await app.register(pushRoutes(ctx, vapid, devices));
}
