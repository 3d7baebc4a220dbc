/**
 * Instances announce themselves on the bus, so each knows how many share it (what an operator
 * is warned about depends on it). Each announces at start and every `everyMs`; one that hears an
 * instance it did not know answers at once, so a newcomer learns of the others within a round
 * trip. An instance unheard for 2.5 intervals is no longer counted. The announcements are the
 * bus's own business: no handler and no own-observer ever sees them.
 */
import { randomUUID } from 'node:crypto';
import type { EventBus, RealtimeEvent } from './types.ts';

const BUS_PRESENCE = 'bus.presence';
const EVERY_MS = 30_000;

export interface PresenceOptions {
  /** Called with the number of instances heard (this one included) each time it changes. */
  onCount(count: number): void;
  /** Tests shorten it; production keeps the default. */
  everyMs?: number;
}

function instanceOf(event: RealtimeEvent): string | null {
  const { data } = event;
  if (typeof data !== 'object' || data === null || !('instance' in data)) return null;
  return typeof data.instance === 'string' ? data.instance : null;
}

export function announceInstances(bus: EventBus, { onCount, everyMs = EVERY_MS }: PresenceOptions): EventBus {
  const self = randomUUID();
  const lastHeard = new Map<string, number>();
  let count = 0;

  const announce = () => bus.publish({ type: BUS_PRESENCE, data: { instance: self } }).catch(() => {});
  function recount(): void {
    const forgotten = Date.now() - everyMs * 2.5;
    for (const [instance, at] of lastHeard) if (at < forgotten) lastHeard.delete(instance);
    if (lastHeard.size === count) return;
    count = lastHeard.size;
    onCount(count);
  }

  const stopHearing = bus.subscribe((event) => {
    if (event.type !== BUS_PRESENCE) return;
    const instance = instanceOf(event);
    if (!instance) return;
    const known = lastHeard.has(instance);
    lastHeard.set(instance, Date.now());
    if (known) return;
    if (instance !== self) void announce();
    recount();
  });
  const timer = setInterval(() => {
    recount();
    void announce();
  }, everyMs);
  timer.unref();
  void announce();

  const withoutPresence = (handler: (event: RealtimeEvent) => void) => (event: RealtimeEvent) => {
    if (event.type !== BUS_PRESENCE) handler(event);
  };
  return {
    publish: (event) => bus.publish(event),
    publishMany: (events) => bus.publishMany(events),
    subscribe: (handler) => bus.subscribe(withoutPresence(handler)),
    observeOwn: (handler) => bus.observeOwn(withoutPresence(handler)),
    async close() {
      clearInterval(timer);
      stopHearing();
      await bus.close();
    },
  };
}
