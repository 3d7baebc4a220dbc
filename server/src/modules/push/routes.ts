/**
 * Web Push API. Every route needs a session; a device exists only for its owner
 * (404 `push_device_not_found` for anyone else, and for ids that are not ids).
 *
 *   GET    /api/push/key                 → { publicKey }        the VAPID key for pushManager.subscribe
 *   POST   /api/push/subscriptions       PushSubscription JSON (+ label) → 201 new | 200 known { device }
 *                                         | 409 push_endpoint_taken (another person's device)
 *   GET    /api/push/subscriptions       → { devices }          the caller's devices, newest first
 *   PATCH  /api/push/subscriptions/:id   { preview } → { device }
 *   DELETE /api/push/subscriptions/:id   → { status: 'deleted' }
 *
 * Notifications themselves are sent from events (./index.ts), never from these routes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MINUTE,
  PUSH_DEVICES_MAX,
  pushDeletedResponseSchema,
  pushDeviceResponseSchema,
  pushDevicesResponseSchema,
  pushKeyResponseSchema,
  pushPreviewBodySchema,
  pushSubscriptionBodySchema,
  SECOND,
} from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, conflict, appError, notFound } from '../../errors.ts';
import { requireUser } from '../auth/guard.ts';
import { removeDevice, listDevices, saveSubscription, setPreview, toDeviceDto } from './data.ts';
import { endpointAllowed } from './endpoint.ts';
import { isP256Point } from './keys.ts';
import type { KnownDevices } from './known-devices.ts';
import { deviceLabel } from './label.ts';
import type { VapidKeys } from './vapid.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Any string: an id that is not one names no device (404), like an unknown one. */
const deviceParams = z.object({ id: z.string() });
/** Subscriptions saved per person and window: a browser subscribes once per device. */
const SUBSCRIBE_WINDOW_MS = 10 * MINUTE;
const SUBSCRIBE_PER_WINDOW = 20;
const noStore = { 'cache-control': 'no-store' };

export function pushRoutes(ctx: AppContext, vapid: VapidKeys, devices: KnownDevices) {
  return async function routes(root: FastifyInstance) {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const { db } = ctx.database;

    // The other instances read the person's devices again; a failed publish never fails the request.
    const devicesChanged = (request: FastifyRequest, userId: string) =>
      devices.changed(userId).catch((err: unknown) => request.log.error({ err }, 'publish failed'));

    const deviceId = (id: string) => {
      if (!UUID.test(id)) throw notFound('push_device_not_found');
      return id;
    };

    app.get(
      '/api/push/key',
      { onRequest: app.authenticate, schema: { response: { 200: pushKeyResponseSchema } } },
      async (_request, reply) => {
        return reply.headers(noStore).send({ publicKey: vapid.publicKey });
      },
    );

    app.post(
      '/api/push/subscriptions',
      {
        config: { write: 'push' },
        onRequest: app.authenticate,
        schema: {
          body: pushSubscriptionBodySchema,
          response: { 200: pushDeviceResponseSchema, 201: pushDeviceResponseSchema },
        },
      },
      async (request, reply) => {
        const { userId } = requireUser(request);
        const attempts = await ctx.limits.count('push_subscribe', `user:${userId}`, SUBSCRIBE_WINDOW_MS);
        if (attempts > SUBSCRIBE_PER_WINDOW) {
          throw new AppError(429, 'push_rate_limited', undefined, {
            'retry-after': String(SUBSCRIBE_WINDOW_MS / SECOND),
          });
        }
        const { endpoint, keys, label } = request.body;
        if (!endpointAllowed(endpoint, ctx.config.pushExtraOrigins)) throw badRequest('push_endpoint_invalid');
        if (!isP256Point(keys.p256dh)) throw badRequest('push_keys_invalid');
        const saved = await saveSubscription(
          db,
          userId,
          {
            endpoint,
            p256dh: keys.p256dh,
            auth: keys.auth,
            label: label || deviceLabel(request.headers['user-agent']),
          },
          PUSH_DEVICES_MAX,
        );
        if (!saved.ok && saved.reason === 'taken') throw conflict('push_endpoint_taken');
        if (!saved.ok) throw appError(409, 'push_devices_too_many', { max: PUSH_DEVICES_MAX });
        await devicesChanged(request, userId);
        return reply
          .status(saved.created ? 201 : 200)
          .headers(noStore)
          .send({ device: toDeviceDto(saved.row) });
      },
    );

    app.get(
      '/api/push/subscriptions',
      { onRequest: app.authenticate, schema: { response: { 200: pushDevicesResponseSchema } } },
      async (request, reply) => {
        const rows = await listDevices(db, requireUser(request).userId);
        return reply.headers(noStore).send({ devices: rows.map(toDeviceDto) });
      },
    );

    app.patch(
      '/api/push/subscriptions/:id',
      {
        config: { write: 'push' },
        onRequest: app.authenticate,
        schema: { params: deviceParams, body: pushPreviewBodySchema, response: { 200: pushDeviceResponseSchema } },
      },
      async (request, reply) => {
        const { userId } = requireUser(request);
        const row = await setPreview(db, userId, deviceId(request.params.id), request.body.preview);
        if (!row) throw notFound('push_device_not_found');
        await devicesChanged(request, userId);
        return reply.headers(noStore).send({ device: toDeviceDto(row) });
      },
    );

    app.delete(
      '/api/push/subscriptions/:id',
      {
        config: { write: 'push' },
        onRequest: app.authenticate,
        schema: { params: deviceParams, response: { 200: pushDeletedResponseSchema } },
      },
      async (request) => {
        const { userId } = requireUser(request);
        if (!(await removeDevice(db, userId, deviceId(request.params.id)))) throw notFound('push_device_not_found');
        await devicesChanged(request, userId);
        return { status: 'deleted' as const };
      },
    );
  };
}
