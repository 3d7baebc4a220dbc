/**
 * One request to a push service. Over https, the host's address is resolved and checked first
 * (./address.ts) and the socket connects to that very address; redirects are not followed.
 * A configured extra origin (the tests' stand-in) is reached as it is.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkedAddress, type Resolve, type ResolvedAddress } from './address.ts';
import { isExtraOrigin } from './endpoint.ts';

export interface PushRequest {
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

export interface TransportOptions {
  resolve: Resolve;
  extraOrigins: readonly string[];
  timeoutMs: number;
}

export class EndpointRefused extends Error {
  readonly code = 'PUSH_ENDPOINT_REFUSED';
}

/** Keeps connections to push services open; each of its sockets was opened to a checked address. */
const agent = new https.Agent({ keepAlive: true });

/** Connects to `address` whatever name is asked: the lookup already happened, and was checked. */
const pinned =
  ({ address, family }: ResolvedAddress): LookupFunction =>
  (_host, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

/** The push service's answer status. */
export async function sendPushRequest(
  endpoint: string,
  request: PushRequest,
  options: TransportOptions,
): Promise<number> {
  const url = new URL(endpoint);
  const base = { method: request.method, headers: request.headers, signal: AbortSignal.timeout(options.timeoutMs) };
  if (isExtraOrigin(endpoint, options.extraOrigins)) {
    return exchange(url.protocol === 'https:' ? https.request(url, base) : http.request(url, base), request.body);
  }
  if (url.protocol !== 'https:') throw new EndpointRefused(`push endpoint not https: ${url.origin}`);
  const address = await checkedAddress(url.hostname, options.resolve);
  return exchange(https.request(url, { ...base, agent, lookup: pinned(address) }), request.body);
}

function exchange(req: http.ClientRequest, body: Buffer | null): Promise<number> {
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}
