/**
 * What the crowd bench's processes share: the specs the parent hands its client processes over
 * IPC, the paced send loop, the wall clock both sides time post events with, and latency
 * percentiles over raw samples.
 */
import type { BenchUser } from '../messages/clients.ts';
import type { Bbox } from '../support/views.ts';

/** One map viewer: the instance it connects to and the bounds its map asks for. */
export interface ViewerSpec {
  base: string;
  bbox: Bbox;
}

/** One chatter; chatters come in pairs (2k, 2k + 1), each pair inside one client process. */
export interface ChatterSpec {
  base: string;
  user: BenchUser;
}

/** A post the parent created: its id, when its POST was issued (epoch ms) and where it is. */
export interface SentPost {
  id: string;
  t0: number;
  latitude: number;
  longitude: number;
}

/**
 * Epoch milliseconds with performance.now()'s resolution. A post is POSTed by the parent and
 * received by the client processes: only a clock every process reads alike can time it.
 */
export const epochNow = () => performance.timeOrigin + performance.now();

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `send(k)` for k in [0, rate·ms/1000) at `rate` per second, in waves every `waveMs`
 * (open loop: a slow answer does not slow the next sends). Resolves once every send settled.
 */
export async function paced(rate: number, ms: number, send: (k: number) => Promise<void>, waveMs = 50): Promise<void> {
  const count = Math.max(1, Math.round((rate * ms) / 1000));
  const start = performance.now();
  const pending: Array<Promise<void>> = [];
  let k = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      // Catch up after a late tick: the rate holds even when this process's loop is busy.
      const due = Math.min(count, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
      while (k < due) pending.push(send(k++));
      if (k >= count) resolve();
      else setTimeout(tick, waveMs);
    };
    tick();
  });
  await Promise.all(pending);
}

export interface Latency {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Percentiles of raw samples (ms), rounded to 0.1 ms. */
export function latency(samples: number[]): Latency {
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  const r = (v: number | undefined) => (v === undefined ? Number.NaN : Math.round(v * 10) / 10);
  return { count: sorted.length, p50: r(at(50)), p95: r(at(95)), p99: r(at(99)), max: r(sorted.at(-1)) };
}

/** Adds `n` to a tally of error kinds. */
export function tally(kinds: Record<string, number>, kind: string, n = 1): void {
  kinds[kind] = (kinds[kind] ?? 0) + n;
}
