/**
 * Large JSON answers (a city's viewport with hundreds of posts) are gzipped for clients that
 * take gzip, by @fastify/compress: five times fewer bytes on a phone's connection. Level 1 keeps
 * nearly all of the gain for the least CPU, and the plugin streams large
 * payloads through zlib in the thread pool, off the event loop. Small answers go as they are:
 * compressing them costs more than it saves.
 *
 * Only the API is compressed on the fly: the web build is served pre-compressed (web-app.ts) and
 * media are already compressed formats served with byte ranges (modules/media/routes.ts).
 */
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

export const COMPRESS_MIN_BYTES = 8 * 1024;

/**
 * Whether the client takes gzip; an explicit `gzip;q=0` wins over `*`. Remembered per header
 * value: browsers send a handful of values, and the feed's and tiles' ready bytes are served tens
 * of thousands of times a second (a bounded map, emptied when full).
 */
const gzipByHeader = new Map<string, boolean>();
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let gzip = gzipByHeader.get(header);
  if (gzip === undefined) {
    if (gzipByHeader.size >= 64) gzipByHeader.clear();
    gzip = parseAcceptsGzip(header);
    gzipByHeader.set(header, gzip);
  }
  return gzip;
}

function parseAcceptsGzip(header: string): boolean {
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim());
    const weight = params.find((p) => p.startsWith('q='));
    q.set(coding, weight ? Number(weight.slice(2)) : 1);
  }
  const weight = q.get('gzip') ?? q.get('x-gzip') ?? q.get('*') ?? 0;
  return weight > 0;
}

export async function installJsonCompression(app: FastifyInstance): Promise<void> {
  // Before the plugin's own onRoute hook, which reads this option.
  app.addHook('onRoute', (route) => {
    if (route.compress === undefined && !route.url.startsWith('/api/')) route.compress = false;
  });
  // Whether or not this client takes gzip, the same URL may be answered either way: caches must
  // know it (the plugin says so only when it compresses).
  // A callback hook: it runs on every response (an async one costs a promise and a microtask).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (
      (typeof payload === 'string' || Buffer.isBuffer(payload)) &&
      String(reply.getHeader('content-type') ?? '').startsWith('application/json') &&
      Buffer.byteLength(payload) >= COMPRESS_MIN_BYTES
    ) {
      const vary = String(reply.getHeader('vary') ?? '');
      if (!/accept-encoding/i.test(vary)) reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
    }
    done(null, payload);
  });
  await app.register(fastifyCompress, {
    threshold: COMPRESS_MIN_BYTES,
    encodings: ['gzip'],
    zlibOptions: { level: 1 },
    // Request bodies are never taken compressed, as before.
    globalDecompression: false,
  });
}
