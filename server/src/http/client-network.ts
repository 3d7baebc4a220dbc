/**
 * The network a client address belongs to, for limits and counts that one person must not
 * multiply by changing address inside the block they hold. An IPv4-mapped IPv6 address is its
 * IPv4 address.
 */
import ipaddr from 'ipaddr.js';

export interface PrefixBits {
  v4: number;
  v6: number;
}

/** '203.0.113.0/24', '2001:db8:1::/48'; text that is no address is returned as it is. */
export function networkOf(ip: string, bits: PrefixBits): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4')
    return `${ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits.v4}`).toString()}/${bits.v4}`;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits.v6}`).toString()}/${bits.v6}`;
}
