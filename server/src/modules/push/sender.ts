/**
 * Sends notifications to people's devices, each one by delivery.ts: a timeout, no redirect,
 * and only to a push service at a public address.
 *
 * Every send is fire-and-forget for the request that caused it: errors are logged, never thrown.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { deliver, type Notice, type PushNetwork } from './delivery.ts';
import type { KnownDevices } from './known-devices.ts';
import type { VapidKeys } from './vapid.ts';

/** The most notices one device lookup serves (its people's ids stay far below the parameter limit). */
const MAX_LOOKUP = 1000;

export interface PushSender {
  /** Sends in the background; `notices` may still be being worked out. */
  notify(notices: Notice[] | Promise<Notice[]>): void;
  /** Waits for the sends under way (the app's close). */
  drain(): Promise<void>;
}

export function createPushSender(
  db: Db,
  devices: KnownDevices,
  vapid: VapidKeys,
  log: FastifyBaseLogger,
  network: PushNetwork,
): PushSender {
  const pending = new Set<Promise<void>>();
  const deliveryDeps = { db, devices, vapid, log, network };

  /** Notices waiting for the next device lookup; `lookup` is the one under way, if any. */
  const waiting: Notice[] = [];
  let lookup: Promise<void> | null = null;
  let scheduled = false;

  function track(job: Promise<void>): void {
    pending.add(job);
    void job.finally(() => pending.delete(job));
  }

  /**
   * One device lookup for every notice gathered since the last (known-devices.ts reads only the
   * people it does not remember): a burst of messages would otherwise cost one statement per
   * message, the largest per-message cost of a send after its own write. The notices of one loop
   * turn (a batch of sends) go together; those that come while a lookup runs wait for it and go
   * in the next, so a quiet moment's push waits one turn. Every notice still reaches each of its
   * person's devices.
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
    // The deliveries run on their own: the next lookup need not wait for push services.
    for (const device of await devices.of([...byUser.keys()])) {
      for (const notice of byUser.get(device.userId) ?? []) {
        track(
          deliver(deliveryDeps, device, notice).catch((error) =>
            log.warn({ err: error, subscription: device.id }, 'push failed'),
          ),
        );
      }
    }
  }

  return {
    notify(notices) {
      track(
        Promise.resolve(notices).then(
          (list) => {
            if (list.length === 0) return;
            waiting.push(...list);
            schedule();
          },
          (error) => log.error({ err: error }, 'push failed'),
        ),
      );
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
