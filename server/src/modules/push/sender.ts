/**
 * Sends notifications to people's devices (RFC 8030 + 8291 + 8292). web-push encrypts the
 * payload (aes128gcm) and signs the VAPID header; the request itself goes out through
 * ./transport.ts: a timeout, no redirect, and only to a push service at a public address.
 *
 * Every send is fire-and-forget for the request that caused it: errors are logged, never thrown.
 * A push service answering 404 or 410 says the subscription is gone: its row is deleted.
 */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { PushPayload } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import type { Resolve } from './address.ts';
import { devicesOf, forgetEndpoint, type PushSubscriptionRow } from './data.ts';
import { endpointAllowed } from './endpoint.ts';
import { sendPushRequest } from './transport.ts';
import type { VapidKeys } from './vapid.ts';

const SEND_TIMEOUT_MS = 10_000;
/** The most notices one device lookup serves (its people's ids stay far below the parameter limit). */
const MAX_LOOKUP = 1000;

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

export interface PushSender {
  /** Sends in the background; `notices` may still be being worked out. */
  notify(notices: Notice[] | Promise<Notice[]>): void;
  /** Waits for the sends under way (the app's close). */
  drain(): Promise<void>;
}

export function payloadFor(notice: Notice, device: Pick<PushSubscriptionRow, 'preview'>): PushPayload {
  return { title: notice.title, body: device.preview ? notice.preview : notice.generic, url: notice.url, tag: notice.tag };
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

export function createPushSender(db: Db, vapid: VapidKeys, log: FastifyBaseLogger, network: PushNetwork): PushSender {
  const pending = new Set<Promise<void>>();

  async function deliver(device: PushSubscriptionRow, notice: Notice): Promise<void> {
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
      log.info({ subscription: device.id, status }, 'push subscription expired: removed');
    } else if (status < 200 || status > 299) {
      log.warn({ subscription: device.id, status }, 'push service refused a notification');
    }
  }

  /** Notices waiting for the next device lookup; `lookup` is the one under way, if any. */
  const waiting: Notice[] = [];
  let lookup: Promise<void> | null = null;
  let scheduled = false;

  function track(job: Promise<void>): void {
    pending.add(job);
    void job.finally(() => pending.delete(job));
  }

  /**
   * One device lookup for every notice gathered since the last: a burst of messages
   * would otherwise cost one statement per message, the largest per-message cost of a send
   * after its own write. The notices of one loop turn (a batch of sends) go together; those that come
   * while a lookup runs wait for it and go in the next, so a quiet moment's push waits one turn.
   * Every notice still reaches each of its person's devices.
   */
  function flush(): void {
    scheduled = false;
    if (lookup || waiting.length === 0) return;
    const batch = waiting.splice(0, MAX_LOOKUP);
    lookup = send(batch)
      .catch((error) => log.error({ err: error }, 'push failed'))
      .finally(() => {
        lookup = null;
        schedule();
      });
    track(lookup);
  }

  function schedule(): void {
    if (scheduled || lookup || waiting.length === 0) return;
    scheduled = true;
    setImmediate(flush);
  }

  async function send(notices: Notice[]): Promise<void> {
    const byUser = new Map<string, Notice[]>();
    for (const notice of notices) {
      const list = byUser.get(notice.userId);
      if (list) list.push(notice);
      else byUser.set(notice.userId, [notice]);
    }
    const devices = await devicesOf(db, [...byUser.keys()]);
    // The deliveries run on their own: the next lookup need not wait for push services.
    for (const device of devices) {
      for (const notice of byUser.get(device.userId) ?? []) {
        track(deliver(device, notice).catch((error) => log.warn({ err: error, subscription: device.id }, 'push failed')));
      }
    }
  }

  return {
    notify(notices) {
      track(Promise.resolve(notices).then(
        (list) => {
          if (list.length === 0) return;
          waiting.push(...list);
          schedule();
        },
        (error) => log.error({ err: error }, 'push failed'),
      ));
    },
    async drain() {
      // A settled step may start the next (a lookup, then its deliveries, then another lookup).
      for (;;) {
        flush(); // what waits goes now rather than a turn later
        if (pending.size === 0 && waiting.length === 0) return;
        await Promise.allSettled([...pending]);
      }
    },
  };
}
