/**
 * One load run from this process with autocannon (the server runs in a process of its own):
 * `paths()` picks each request's path, so a run is a realistic mix, not one cached URL.
 *
 * Two of autocannon's habits measured the load generator instead of the server, and are undone
 * here:
 * - it appends every response body to a string (pipelinedRequestsQueue.addBody), decoding gzip's
 *   binary bytes as UTF-8: on feed answers the generator's process, not the server, became the
 *   limit, and asking for gzip looked much slower than not. No bench reads a body, so bodies are
 *   dropped unread (their bytes are still counted from the socket);
 * - a run of a fixed `amount` ends on its 1 s ticker, so its rate came out as amount ÷ 1 or 2 s;
 *   it is timed to its last response instead.
 */
import http from 'node:http';
import { createRequire } from 'node:module';

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}
/** The part of autocannon's per-connection client (lib/httpClient.js) that setupClient touches. */
interface AutocannonClient {
  parser: Record<number, (...args: unknown[]) => void>;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  headers?: Record<string, string>;
  requests?: Array<{ setupRequest: (req: { path: string }) => { path: string } }>;
  setupClient?: (client: AutocannonClient) => void;
}
interface AutocannonInstance {
  on(event: 'response', listener: () => void): void;
}
// autocannon ships no types; its programmatic API is this one call (with a callback, it returns
// the running instance, whose 'response' events time the run).
const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: AutocannonOptions,
  done: (error: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;
/** http-parser-js's body callback slot (HTTPParser.kOnBody), which autocannon's client fills. */
const ON_BODY = 3;

/** Drops response bodies unread: autocannon's client sets its body callback right after calling this. */
function dropBodies(client: AutocannonClient): void {
  queueMicrotask(() => {
    client.parser[ON_BODY] = () => {};
  });
}

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
  let lastResponse = started;
  const result = await new Promise<AutocannonResult>((resolve, reject) => {
    const run = autocannon(
      {
        url: paths ? base : `${base}/`,
        ...opts,
        ...(paths ? { requests: [{ setupRequest: (req) => ({ ...req, path: paths() }) }] } : {}),
        setupClient: dropBodies,
      },
      (error, answer) => (error ? reject(error) : resolve(answer)),
    );
    run.on('response', () => {
      lastResponse = performance.now();
    });
  });
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${base}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const total = result['2xx'];
  // A fixed amount: the rate up to its last response (autocannon's own end waits for its ticker).
  const seconds = (lastResponse - started) / 1000;
  return {
    rps: opts.amount ? total / seconds : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: total,
  };
}

/**
 * One client's latency, to the microsecond (autocannon's histogram holds whole milliseconds, so
 * every warm p50 read 0 or 1): `count` requests one after another on one kept-alive connection,
 * each on a path of the mix, the body read to its end. What a lone viewer waits for an answer,
 * without the queueing of a loaded run; its p50 is the one that shows growth with the data.
 */
export async function probeLatency(
  base: string,
  paths: () => string,
  count: number,
  headers: Record<string, string> = {},
): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const one = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const start = process.hrtime.bigint();
      const req = http.get(new URL(path, base), { agent, headers }, (res) => {
        res.on('data', () => {});
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Number(process.hrtime.bigint() - start) / 1e6)
            : reject(new Error(`${path}: ${res.statusCode}`)),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  try {
    const samples: number[] = [];
    for (let i = 0; i < count; i++) samples.push(await one(paths()));
    return samples;
  } finally {
    agent.destroy();
  }
}
