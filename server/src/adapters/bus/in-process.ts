/** The embedded bus: one process (PGlite allows only one), so events never leave it. */
import type { EventBus, RealtimeEvent } from './types.ts';
import { ownObservers } from './own-observers.ts';

export function createInProcessBus(): EventBus {
  const handlers = new Set<(event: RealtimeEvent) => void>();
  const own = ownObservers();
  return {
    async publish(event) {
      own.notify(event);
      // Delivered on the next tick, like a remote bus, so publishers never depend on handlers.
      queueMicrotask(() => handlers.forEach((h) => h(event)));
    },
    async publishMany(events) {
      for (const event of events) own.notify(event);
      queueMicrotask(() => events.forEach((event) => handlers.forEach((h) => h(event))));
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
