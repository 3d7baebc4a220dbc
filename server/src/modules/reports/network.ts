/**
 * The network a report comes from: the client's IPv4 /24 or IPv6 /48, the block one person
 * easily holds several addresses in. Stored as a keyed hash, so the table keeps no address and a
 * leaked table cannot be matched against the few million /24s by hashing them all.
 */
import { createHmac } from 'node:crypto';
import { networkOf } from '../../http/client-network.ts';

/** '203.0.113.0/24', '2001:db8:1::/48'; an IPv4-mapped IPv6 address is its IPv4 network. */
export const networkPrefix = (ip: string): string => networkOf(ip, { v4: 24, v6: 48 });

/** The stored form of the client's network. */
export function reporterNetwork(key: Buffer, ip: string): string {
  return createHmac('sha256', key).update(networkPrefix(ip)).digest('base64url');
}
