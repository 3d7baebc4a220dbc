/**
 * The embedded bus: one process (PGlite allows only one), so events never leave it. They still
 * go through the remote buses' payloads (payloads.ts): handlers get copies as they would from
 * PostgreSQL or Redis, and an event too large for those is refused here too.
 */
import { assembleBus, busHandlers } from './assemble.ts';
import type { EventBus } from './types.ts';

export function createInProcessBus(): EventBus {
  const { handlers, deliver } = busHandlers();
  return assembleBus(handlers, {
    // Delivered on the next tick, like a remote bus, so publishers never depend on handlers.
    send: async (payloads) => queueMicrotask(() => payloads.forEach(deliver)),
    close: async () => {},
  });
}
