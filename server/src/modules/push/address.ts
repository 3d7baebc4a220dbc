/**
 * The addresses a push may go to: public unicast only. A push service's name is resolved once,
 * every answer is checked, and the connection goes to the checked address (no second lookup a
 * rebinding DNS server could answer differently).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
const IPV4: Array<[string, number]> = [
  ['0.0.0.0', 8], // unspecified, "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT (and Alibaba's metadata service)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, the clouds' metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
  ['168.63.129.16', 32], // Azure's host services
];
/** IPv4-mapped addresses (::ffff:a.b.c.d) are matched against the IPv4 ranges by BlockList itself. */
const IPV6: Array<[string, number]> = [
  ['::', 127], // unspecified and loopback
  ['64:ff9b::', 96], // NAT64: an IPv4 address inside
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32], // Teredo
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local (AWS's metadata service is fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10],
  ['ff00::', 8], // multicast
];
for (const [net, prefix] of IPV4) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of IPV6) blocked.addSubnet(net, prefix, 'ipv6');

/** A public unicast IP address; false for anything else, names included. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a name resolves to. */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export class AddressRefused extends Error {
  readonly code = 'PUSH_ADDRESS_REFUSED';
  readonly host: string;
  readonly address: string;
  constructor(host: string, address: string) {
    super(`push endpoint ${host} resolves to a non-public address (${address})`);
    this.host = host;
    this.address = address;
  }
}

/**
 * The address to connect to for `host` (a URL's hostname: an IPv6 literal keeps its brackets).
 * Refused when any answer is not public: a name that also points inside is not a push service.
 */
export async function checkedAddress(host: string, resolve: Resolve): Promise<ResolvedAddress> {
  const literal = host.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(literal);
  const answers = family === 0 ? await resolve(host) : [{ address: literal, family }];
  const refused = answers.find((answer) => !isPublicAddress(answer.address));
  const [first] = answers;
  if (refused || !first) throw new AddressRefused(host, refused?.address ?? 'none');
  return first;
}
