/**
 * One notification to one device (RFC 8030 + 8291 + 8292): web-push encrypts the payload
 * (aes128gcm) and signs the VAPID header; the request itself goes out through ./transport.ts.
 * A push service answering 404 or 410 says the subscription is gone: its row is deleted.
 */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { PushPayload } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import type { Resolve } from './address.ts';
import { forgetEndpoint, type PushSubscriptionRow } from './data.ts';
import { endpointAllowed } from './endpoint.ts';
import type { KnownDevices } from './known-devices.ts';
import { sendPushRequest } from './transport.ts';
import type { VapidKeys } from './vapid.ts';

const SEND_TIMEOUT_MS = 10_000;

/** What one event tells one person; the device's preview setting picks `preview` or `generic`. */
export interface Notice {
  userId: string;
  title: string;
  /** The short text shown when the device allows previews. */
  preview: string;
  /** The text shown otherwise: nothing of the content. */
  generic: string;
  url: string;
  tag: string;
  urgency: webpush.Urgency;
  /** Seconds the push service keeps it for a device that is offline. */
  ttl: number;
}

export function payloadFor(notice: Notice, device: Pick<PushSubscriptionRow, 'preview'>): PushPayload {
  return {
    title: notice.title,
    body: device.preview ? notice.preview : notice.generic,
    url: notice.url,
    tag: notice.tag,
  };
}

/**
 * The Topic header (RFC 8030 §5.4) replaces an undelivered push with the same topic: a device
 * back online gets the latest of a conversation, not each message. At most 32 base64url chars.
 */
const topicOf = (tag: string) => createHash('sha256').update(tag).digest('base64url').slice(0, 32);

/** Where pushes may go: the name resolver, and the origins accepted besides the push services. */
export interface PushNetwork {
  resolve: Resolve;
  extraOrigins: readonly string[];
}

export interface DeliveryDeps {
  db: Db;
  devices: KnownDevices;
  vapid: VapidKeys;
  log: FastifyBaseLogger;
  network: PushNetwork;
}

/** Sends one notice to one device; a device its push service says is gone is forgotten. */
export async function deliver(
  { db, devices, vapid, log, network }: DeliveryDeps,
  device: PushSubscriptionRow,
  notice: Notice,
): Promise<void> {
  // A row stored before the endpoint rules existed gets nothing.
  if (!endpointAllowed(device.endpoint, network.extraOrigins)) {
    log.warn({ subscription: device.id }, 'push endpoint refused: not a push service');
    return;
  }
  const details = webpush.generateRequestDetails(
    { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    JSON.stringify(payloadFor(notice, device)),
    {
      vapidDetails: vapid,
      TTL: notice.ttl,
      urgency: notice.urgency,
      topic: topicOf(notice.tag),
      contentEncoding: 'aes128gcm',
    },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
  const status = await sendPushRequest(
    details.endpoint,
    { method: details.method, headers, body: details.body ?? null },
    { ...network, timeoutMs: SEND_TIMEOUT_MS },
  );
  if (status === 404 || status === 410) {
    await forgetEndpoint(db, device);
    await devices.changed(device.userId);
    log.info({ subscription: device.id, status }, 'push subscription expired: removed');
  } else if (status < 200 || status > 299) {
    log.warn({ subscription: device.id, status }, 'push service refused a notification');
  }
}
