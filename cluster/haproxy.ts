/**
 * The load balancer's configuration (HAProxy): round robin over the instances, no stickiness,
 * WebSocket upgrades passed through (`timeout tunnel`), an instance taken out after two failed
 * health checks half a second apart and its open connections closed then, so sockets on a dead
 * or cut-off instance reconnect at once to a living one. A check's answer may take 2 s
 * (`timeout check`): without it the whole check must fit in `inter`, and a busy moment marks
 * every instance down at once (all their sessions closed, 503s) though none is; a dead or
 * cut-off instance still fails its check within half a second, at the connection.
 * Two test-only lines: every answer names the instance that served it (X-Cluster-Host), and a
 * request may ask for one instance by name (the same header), to read each host's answers.
 */
import { APP_HOSTS, HOSTS } from './topology.ts';

export const APP_PORT = 3000;
export const HOST_HEADER = 'x-cluster-host';

export function haproxyConfig(): string {
  const servers = APP_HOSTS.map(
    (name) =>
      `  server ${name} ${HOSTS[name]}:${APP_PORT} check inter 500ms fall 2 rise 2 on-marked-down shutdown-sessions`,
  );
  const pinned = APP_HOSTS.map((name) => `  use-server ${name} if { req.hdr(${HOST_HEADER}) -m str ${name} }`);
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  option redispatch',
    '  retries 2',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 30s',
    '  timeout tunnel 1h',
    '  timeout check 2s',
    'frontend web',
    `  bind ${HOSTS.lb}:80`,
    '  default_backend apps',
    'backend apps',
    '  balance roundrobin',
    '  option httpchk GET /api/health',
    '  http-check expect status 200',
    `  http-response set-header X-Cluster-Host %s`,
    ...pinned,
    ...servers,
    '',
  ].join('\n');
}
