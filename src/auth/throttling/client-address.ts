import ipaddr from 'ipaddr.js';

/**
 * The key a client address is counted under: an IPv4 address as is (also when written IPv4-mapped,
 * `::ffff:1.2.3.4`), an IPv6 address by its /64, because one subscriber is given a whole /64 and
 * could otherwise rotate through 2^64 addresses.
 */
export function clientKey(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return address || 'unknown';
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}
