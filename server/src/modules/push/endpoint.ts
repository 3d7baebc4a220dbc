/**
 * Where the server agrees to send pushes. The endpoint comes from the browser, i.e. from the
 * caller, and the server POSTs to it later: only the browsers' own push services are accepted,
 * over https on the default port, so an endpoint cannot aim the server at its own network.
 * (The address each name resolves to is checked again when sending: ./address.ts.)
 */

/** Push services of the browsers: Chrome & co. (FCM, and its former GCM name), Firefox, Safari, Edge. */
const PUSH_HOSTS = new Set([
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  'push.services.mozilla.com',
]);
/** Services with one host name per region or shard (web.push.apple.com, wns2-par02p.notify.windows.com). */
const PUSH_HOST_SUFFIXES = ['.push.apple.com', '.notify.windows.com'];

const parse = (endpoint: string): URL | null => (URL.canParse(endpoint) ? new URL(endpoint) : null);

const isPushHost = (host: string) =>
  PUSH_HOSTS.has(host) ||
  PUSH_HOST_SUFFIXES.some((suffix) => host.endsWith(suffix) && /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host));

/**
 * `extraOrigins` are origins accepted as they are, with no address check when sending: the
 * tests' local stand-in for a push service. Only tests set them (config.pushExtraOrigins).
 */
export function isExtraOrigin(endpoint: string, extraOrigins: readonly string[]): boolean {
  const url = parse(endpoint);
  return !!url && url.origin !== 'null' && extraOrigins.some((origin) => parse(origin)?.origin === url.origin);
}

export function endpointAllowed(endpoint: string, extraOrigins: readonly string[]): boolean {
  const url = parse(endpoint);
  if (!url || url.username || url.password || url.hash) return false;
  if (isExtraOrigin(endpoint, extraOrigins)) return true;
  // `url.port` is empty for https on 443; any other port is not a push service's.
  return url.protocol === 'https:' && url.port === '' && isPushHost(url.hostname);
}
