/** The observers of a bus's own publishes (EventBus.observeOwn), shared by every adapter. */
import type { RealtimeEvent } from './types.ts';

type Observer = (event: RealtimeEvent) => void;

export function ownObservers() {
  const observers = new Set<Observer>();
  return {
    add(observer: Observer): () => void {
      observers.add(observer);
      return () => observers.delete(observer);
    },
    notify(event: RealtimeEvent): void {
      for (const observer of observers) {
        try {
          observer(event);
        } catch {
          // An observer never fails a publish.
        }
      }
    },
    clear(): void {
      observers.clear();
    },
  };
}
