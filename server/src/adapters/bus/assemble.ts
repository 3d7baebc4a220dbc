/**
 * What every bus does the same way around its transport: this instance's handlers (told each
 * event parsed from a payload, and BUS_RESUMED after a gap), the observers of its own publishes,
 * and the payloads a batch of events packs into. An adapter brings only how payloads travel.
 */
import { ownObservers } from './own-observers.ts';
import { batchPayloads, eventPayload, EventTooLargeError, parsePayload, stamped, unstamped } from './payloads.ts';
import { BUS_RESUMED, type EventBus, type RealtimeEvent } from './types.ts';

export function busHandlers() {
  const handlers = new Set<(event: RealtimeEvent) => void>();
  const tell = (event: RealtimeEvent) => handlers.forEach((h) => h(event));
  return {
    handlers,
    /** Tells every handler the events of one payload, as received, unless it came too late. */
    deliver: (message: string) => {
      const payload = unstamped(message, Date.now());
      if (payload !== null) parsePayload(payload).forEach(tell);
    },
    /** The link is back after a gap: events were missed. */
    resumed: () => tell({ type: BUS_RESUMED, data: null }),
  };
}

export interface Transport {
  /** Sends the payloads in their order (each stamped with its publish time). */
  send(payloads: string[]): Promise<void>;
  close(): Promise<void>;
}

export function assembleBus(handlers: Set<(event: RealtimeEvent) => void>, transport: Transport): EventBus {
  const own = ownObservers();
  return {
    async publish(event) {
      own.notify(event);
      await transport.send([stamped(eventPayload(event), Date.now())]);
    },
    async publishMany(events) {
      for (const event of events) own.notify(event);
      const { payloads, tooLarge } = batchPayloads(events);
      const now = Date.now();
      await transport.send(payloads.map((payload) => stamped(payload, now)));
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
      await transport.close();
    },
  };
}
