import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';

/** Keys of the addresses seen lately: a login counts its address three times, parsing it each time otherwise. */
const keys = new LRUCache<string, string>({ max: 10_000 });
/** The longest text of an IPv6 address with an IPv4 tail and a zone. */
const MAX_ADDRESS = 64;

/**
 * The key a client address is counted under: an IPv4 address as is (also when written IPv4-mapped,
 * `::ffff:1.2.3.4`), an IPv6 address by its /64, because one subscriber is given a whole /64 and
 * could otherwise rotate through 2^64 addresses.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  // Only what can be an address is kept (an X-Forwarded-For entry of a trusted proxy can be any text).
  if (address.length > MAX_ADDRESS) return keyOf(address);
  let key = keys.get(address);
  if (key === undefined) keys.set(address, (key = keyOf(address)));
  return key;
}

function keyOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}
