/**
 * The embedded bus: one process (PGlite allows only one), so events never leave it. They still
 * go through the remote buses' payloads (payloads.ts): handlers get copies as they would from
 * PostgreSQL or Redis, and an event too large for those is refused here too.
 */
import { ownObservers } from './own-observers.ts';
import { batchPayloads, eventPayload, EventTooLargeError, parsePayload } from './payloads.ts';
import type { EventBus, RealtimeEvent } from './types.ts';

export function createInProcessBus(): EventBus {
  const handlers = new Set<(event: RealtimeEvent) => void>();
  const own = ownObservers();
  // Delivered on the next tick, like a remote bus, so publishers never depend on handlers.
  const deliverSoon = (events: RealtimeEvent[]) => queueMicrotask(() => events.forEach((event) => handlers.forEach((h) => h(event))));
  return {
    async publish(event) {
      own.notify(event);
      deliverSoon(parsePayload(eventPayload(event)));
    },
    async publishMany(events) {
      for (const event of events) own.notify(event);
      const { payloads, tooLarge } = batchPayloads(events);
      deliverSoon(payloads.flatMap(parsePayload));
      if (tooLarge) throw new EventTooLargeError(tooLarge);
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    observeOwn: own.add,
    async close() {
      handlers.clear();
      own.clear();
    },
  };
}
