/** The embedded bus: one process (PGlite allows only one), so events never leave it. */
import type { EventBus, RealtimeEvent } from './types.ts';

export function createInProcessBus(): EventBus {
  const handlers = new Set<(event: RealtimeEvent) => void>();
  return {
    async publish(event) {
      // Delivered on the next tick, like a remote bus, so publishers never depend on handlers.
      queueMicrotask(() => handlers.forEach((h) => h(event)));
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      handlers.clear();
    },
  };
}
