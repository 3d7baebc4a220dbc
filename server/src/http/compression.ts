/**
 * Large JSON answers (a city's viewport is ~350 kB for ~460 posts) are gzipped for clients that
 * take gzip: five times fewer bytes on a phone's connection. Level 1 keeps nearly all of the
 * gain for the least CPU (~4 ms for 350 kB), and zlib runs it in the thread pool, off the event
 * loop. Small answers go as they are: compressing them costs more than it saves.
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

const gzipAsync = promisify(gzip);
export const COMPRESS_MIN_BYTES = 8 * 1024;

/** Whether the client takes gzip; an explicit `gzip;q=0` wins over `*`. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim());
    const weight = params.find((p) => p.startsWith('q='));
    q.set(coding, weight ? Number(weight.slice(2)) : 1);
  }
  const weight = q.get('gzip') ?? q.get('x-gzip') ?? q.get('*') ?? 0;
  return weight > 0;
}

export function installJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.getHeader('content-encoding')) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    if (Buffer.byteLength(payload) < COMPRESS_MIN_BYTES) return payload;
    // Whether or not this client takes it, the same URL may be answered either way.
    const vary = String(reply.getHeader('vary') ?? '');
    if (!/accept-encoding/i.test(vary)) reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
    if (!acceptsGzip(request.headers['accept-encoding'])) return payload;
    const body = await gzipAsync(payload, { level: 1 });
    reply.header('content-encoding', 'gzip');
    reply.removeHeader('content-length');
    return body;
  });
}
