/**
 * Where the server agrees to send pushes. The endpoint comes from the browser, i.e. from the
 * caller: the server POSTs to it later, so it must not become a way to reach the server's own
 * network. In production: https only, to a host name (no IP literal, no localhost). Elsewhere
 * an http endpoint on the loopback is allowed too, for the tests' stand-in push service.
 */
import type { Config } from '../../config.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

export function endpointAllowed(endpoint: string, env: Config['env']): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash) return false;
  const host = url.hostname.toLowerCase();
  if (url.protocol === 'http:') return env !== 'production' && LOOPBACK.has(host);
  if (url.protocol !== 'https:') return false;
  if (env !== 'production') return true;
  return !LOOPBACK.has(host) && !host.endsWith('.localhost') && !IPV4.test(host) && !host.startsWith('[');
}
