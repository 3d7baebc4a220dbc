/**
 * This instance's counts since the last flush, added to the shared counters (counters.ts) at
 * each flush: counting costs no write on a request's path.
 */
import type { CostMetric } from '@moodmap/core';
import type { CostUnits, CounterStore } from './counters.ts';

export const dayOf = (date: Date) => date.toISOString().slice(0, 10);

export function createCountBuffer(store: CounterStore, now: () => Date, onError?: (error: unknown) => void) {
  let pending: { day: string; units: Partial<CostUnits> } = { day: dayOf(now()), units: {} };

  async function flush(): Promise<void> {
    const batch = pending;
    pending = { day: dayOf(now()), units: {} };
    if (Object.keys(batch.units).length === 0) return;
    try {
      await store.add(batch.day, batch.units);
    } catch (error) {
      // Put them back: a database blip must not lose the day's counts.
      for (const [metric, units] of Object.entries(batch.units)) {
        pending.units[metric as CostMetric] = (pending.units[metric as CostMetric] ?? 0) + (units ?? 0);
      }
      throw error;
    }
  }

  return {
    add(metric: CostMetric, units: number): void {
      // A new day: yesterday's counts go to yesterday's counters.
      if (dayOf(now()) !== pending.day) void flush().catch((error) => onError?.(error));
      pending.units[metric] = (pending.units[metric] ?? 0) + units;
    },
    flush,
  };
}
