/**
 * Slow clients. Without limits, a client that declares a 1000-byte body and
 * sends 11 bytes holds its connection forever, and a few thousand of them exhaust the server.
 * - headers must arrive within `headersMs`, the whole request within `requestMs` (then 408 in
 *   the API's shape, see client-errors.ts);
 * - an idle keep-alive connection closes after `keepAliveMs`, a silent one mid-request after
 *   `socketIdleMs` (WebSockets are exempt: ws clears the socket timeout on upgrade);
 * - one address holds at most `maxPerIp` connections at once, WebSockets included; the next
 *   one is answered 503 `too_many_connections` and closed.
 */
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';
import { closeWith, rawErrorResponse } from './client-errors.ts';

/**
 * Fastify's server options for the timeouts. Node checks the header and request timeouts
 * every `connectionsCheckingInterval` (30 s by default, far coarser than the limits), so it
 * checks at least every second.
 */
export function timeoutOptions(
  config: Config,
): Pick<FastifyServerOptions, 'connectionTimeout' | 'keepAliveTimeout' | 'requestTimeout'> & { http: ServerOptions } {
  const { headersMs, requestMs, keepAliveMs, socketIdleMs } = config.timeouts;
  return {
    connectionTimeout: socketIdleMs,
    keepAliveTimeout: keepAliveMs,
    requestTimeout: requestMs,
    http: {
      headersTimeout: headersMs,
      requestTimeout: requestMs,
      connectionsCheckingInterval: Math.min(1000, Math.ceil(headersMs / 2)),
    },
  };
}

/** Counts open connections per remote address and refuses those beyond `maxPerIp` (0: no ceiling). */
export function installConnectionCeiling(server: Server, maxPerIp: number): void {
  if (maxPerIp <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= maxPerIp) {
      closeWith(socket, rawErrorResponse(503, 'too_many_connections'));
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
