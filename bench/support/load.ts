/**
 * One load run from this process with autocannon (the server runs in a process of its own):
 * `paths()` picks each request's path, so a run is a realistic mix, not one cached URL.
 */
import { createRequire } from 'node:module';

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  headers?: Record<string, string>;
  requests?: Array<{ setupRequest: (req: { path: string }) => { path: string } }>;
}
// autocannon ships no types; its programmatic API is this one call.
const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
}

export interface LoadOptions {
  connections: number;
  duration?: number;
  amount?: number;
  headers?: Record<string, string>;
}

/** Runs autocannon on `base` (its `/` when `paths` is null); throws on any non-2xx or error. */
export async function load(base: string, paths: (() => string) | null, opts: LoadOptions): Promise<Load> {
  const started = performance.now();
  const result = await autocannon({
    url: paths ? base : `${base}/`,
    ...opts,
    ...(paths ? { requests: [{ setupRequest: (req) => ({ ...req, path: paths() }) }] } : {}),
  });
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${base}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const total = result['2xx'];
  // A fixed amount: the rate over the wall time (autocannon's duration is whole seconds).
  const seconds = (performance.now() - started) / 1000;
  return { rps: opts.amount ? total / seconds : result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: total };
}
