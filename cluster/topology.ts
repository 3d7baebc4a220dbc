/**
 * The cluster's network: one network namespace per host, each joined by a veth pair to a bridge
 * that lives in a namespace of its own (`<prefix>net`), so nothing of the test touches the
 * machine's own namespace, routes or addresses. Hosts are on 10.77.0.0/16: servers on
 * 10.77.0.x, the workload's simulated people on 10.77.1.x (one address each, so the server's
 * per-address limits count per person, as behind real home connections).
 */
import { execFileSync } from 'node:child_process';

export const SUBNET_BITS = 16;
export const PREFIX = 'mmc-';
const BRIDGE_NS = `${PREFIX}net`;
const BRIDGE = 'mmcbr0';

export const HOSTS = {
  lb: '10.77.0.2',
  app1: '10.77.0.11',
  app2: '10.77.0.12',
  app3: '10.77.0.13',
  db: '10.77.0.20',
  redis: '10.77.0.21',
  s3: '10.77.0.22',
  mail: '10.77.0.23',
  client: '10.77.0.100',
} as const;
export type HostName = keyof typeof HOSTS;
export const APP_HOSTS = ['app1', 'app2', 'app3'] as const;
export type AppHost = (typeof APP_HOSTS)[number];
export const appHostOf = (name: string): AppHost | null => APP_HOSTS.find((h) => h === name) ?? null;

/** The addresses of the workload's people: 10.77.1.1, 10.77.1.2, … */
export function personAddress(index: number): string {
  return `10.77.${1 + Math.floor(index / 250)}.${1 + (index % 250)}`;
}

export const namespaceOf = (host: HostName) => `${PREFIX}${host}`;
/** The bridge-side end of a host's link: setting it down is pulling that host's cable. */
const bridgePort = (host: HostName) => `mmcb-${host}`;

function ip(args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Namespaces this tool owns (its prefix), e.g. left by a run that was killed. */
export function ownNamespaces(): string[] {
  return ip(['netns', 'list'])
    .split('\n')
    .map((line) => line.split(' ')[0])
    .filter((name) => name.startsWith(PREFIX));
}

export function createTopology(people: number): void {
  ip(['netns', 'add', BRIDGE_NS]);
  ip(['-n', BRIDGE_NS, 'link', 'set', 'lo', 'up']);
  ip(['-n', BRIDGE_NS, 'link', 'add', BRIDGE, 'type', 'bridge']);
  ip(['-n', BRIDGE_NS, 'link', 'set', BRIDGE, 'up']);
  for (const [host, address] of Object.entries(HOSTS) as Array<[HostName, string]>) {
    const ns = namespaceOf(host);
    ip(['netns', 'add', ns]);
    ip(['-n', ns, 'link', 'set', 'lo', 'up']);
    // Created in the host's namespace, its bridge end moved into the bridge's.
    ip(['-n', ns, 'link', 'add', 'eth0', 'type', 'veth', 'peer', 'name', bridgePort(host)]);
    ip(['-n', ns, 'link', 'set', bridgePort(host), 'netns', BRIDGE_NS]);
    ip(['-n', BRIDGE_NS, 'link', 'set', bridgePort(host), 'master', BRIDGE]);
    ip(['-n', BRIDGE_NS, 'link', 'set', bridgePort(host), 'up']);
    ip(['-n', ns, 'addr', 'add', `${address}/${SUBNET_BITS}`, 'dev', 'eth0']);
    ip(['-n', ns, 'link', 'set', 'eth0', 'up']);
  }
  const client = namespaceOf('client');
  for (let i = 0; i < people; i++)
    ip(['-n', client, 'addr', 'add', `${personAddress(i)}/${SUBNET_BITS}`, 'dev', 'eth0']);
}

/** Pulls (`false`) or plugs back (`true`) a host's cable, at the bridge. */
export function setLink(host: HostName, up: boolean): void {
  ip(['-n', BRIDGE_NS, 'link', 'set', bridgePort(host), up ? 'up' : 'down']);
}

/** Process ids still inside a namespace. */
export function namespacePids(ns: string): number[] {
  try {
    return ip(['netns', 'pids', ns]).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Deletes every namespace of this tool; their veth pairs and the bridge go with them. */
export function deleteTopology(): void {
  for (const ns of ownNamespaces()) {
    try {
      ip(['netns', 'del', ns]);
    } catch (error) {
      console.error(
        `suppression de l'espace réseau ${ns} impossible :`,
        error instanceof Error ? error.message : error,
      );
    }
  }
}
