import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Against server-side request forgery: a webhook URL must not reach the service's own network.
 * Every address its host resolves to must be public unicast (ipaddr.js `range()` is `unicast`);
 * loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved and
 * unspecified addresses are refused, IPv4-mapped IPv6 addresses by their IPv4 range. Checked when
 * a subscription is saved and again for every delivery, on the addresses the request then
 * connects to (`pinnedLookup`), so a DNS answer that changes later (rebinding) gains nothing.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

export class UrlRefused extends Error {}

/** The addresses of `host`, all of them checked unless `allowPrivate`; throws UrlRefused. */
export async function resolveAllowed(host: string, allowPrivate: boolean): Promise<{ address: string; family: number }[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  let addresses: { address: string; family: number }[];
  if (isIP(bare)) addresses = [{ address: bare, family: isIP(bare) }];
  else {
    try {
      addresses = await lookup(bare, { all: true, verbatim: true });
    } catch (e) {
      throw new UrlRefused(`${bare} does not resolve (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (addresses.length === 0) throw new UrlRefused(`${bare} does not resolve`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw new UrlRefused(`${bare} resolves to ${bad.address}, which is not a public address`);
  }
  return addresses;
}

/** A `lookup` for node:http(s) that answers only checked addresses (see `resolveAllowed`). */
export function pinnedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: { all?: boolean },
    callback: (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void,
  ): void => {
    resolveAllowed(hostname, allowPrivate).then(
      (addresses) => (options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family)),
      (err: Error) => callback(Object.assign(err, { code: 'EREFUSEDADDRESS' }), ''),
    );
  };
}
