import { readFileSync } from 'node:fs';
import os from 'node:os';
/** Small statistics every bench prints: percentiles of samples, and median with spread over rounds. */

export function percentile(samples: readonly number[], p: number): number {
  if (!samples.length) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const median = (samples: readonly number[]) => percentile(samples, 50);

/** Median of the rounds and their spread (min–max), e.g. "0.0071 (0.0065–0.0080)". */
export interface Spread {
  median: number;
  min: number;
  max: number;
  rounds: number[];
}

export function spread(rounds: readonly number[]): Spread {
  return { median: median(rounds), min: Math.min(...rounds), max: Math.max(...rounds), rounds: [...rounds] };
}

/** Rounds to `digits` significant digits, so ratios from 0.0007 to 700 stay readable. */
export function sig(value: number, digits = 3): number {
  if (!Number.isFinite(value) || value === 0) return value;
  return Number(value.toPrecision(digits));
}

export function formatSpread(s: Spread, unit = ''): string {
  return `${sig(s.median)}${unit} (${sig(s.min)}–${sig(s.max)})`;
}

/** /proc/loadavg's whole line (1, 5 and 15-minute load, runnable/total tasks), or the 1-minute load elsewhere. */
export function loadLine(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').trim();
  } catch {
    return String(os.loadavg()[0]);
  }
}
