import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net, { isIP } from 'node:net';
import tls, { type ConnectionOptions } from 'node:tls';
import type { Duplex } from 'node:stream';
import ipaddr from 'ipaddr.js';

/** IPv6 global unicast (RFC 4291): every other IPv6 block is refused, whatever ipaddr.js calls it. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
/** The NAT64 well-known prefix (RFC 6052): an IPv4 address reached through the network's NAT64. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

const publicV4 = (ip: ipaddr.IPv4) => ip.range() === 'unicast';

/**
 * Against server-side request forgery: a webhook URL (or any URL the service calls for a tenant)
 * must not reach the service's own network. Deny by default: an IPv4 address must be unicast
 * outside every special-purpose block ipaddr.js knows (private, loopback, link-local, carrier-grade
 * NAT, benchmarking, documentation, reserved...); an IPv6 address must be global unicast (2000::/3)
 * outside its special blocks (Teredo, 6to4, documentation, ORCHID...), so IPv4-compatible
 * (`::7f00:1`), site-local, discard and local-use NAT64 addresses are refused too. IPv4 written
 * in IPv6 (IPv4-mapped, the well-known NAT64 prefix) is judged as that IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return publicV4(ip as ipaddr.IPv4);
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return publicV4(v6.toIPv4Address());
  if (v6.match(NAT64)) return publicV4(ipaddr.fromByteArray(v6.toByteArray().slice(12)) as ipaddr.IPv4);
  return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast';
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

type Connect = (err: Error | null, socket: Duplex) => void;

/**
 * Every connection of these agents goes to an address checked at that moment: the host, written
 * as a name or as an address in any form, is resolved and checked (`resolveAllowed`), and the
 * socket connects to that very address (TLS still verifies the certificate of the host's name).
 * So neither a DNS answer that changes after the subscription was saved (rebinding) nor a URL
 * written as an address escapes the check.
 */
export function guardedAgents(allowPrivate: boolean, options: http.AgentOptions): { http: http.Agent; https: https.Agent } {
  const connectTo = (opts: { host?: string | null; hostname?: string | null }, open: (address: string) => Duplex, done: Connect) => {
    resolveAllowed(opts.hostname ?? opts.host ?? 'localhost', allowPrivate).then(
      ([first]) => {
        try {
          done(null, open(first.address));
        } catch (err) {
          done(err as Error, undefined as never);
        }
      },
      (err: Error) => done(Object.assign(err, { code: 'EREFUSEDADDRESS' }), undefined as never),
    );
  };
  class GuardedHttp extends http.Agent {
    override createConnection(opts: http.ClientRequestArgs, done?: Connect): Duplex | null | undefined {
      connectTo(opts, (address) => net.connect({ ...(opts as net.TcpNetConnectOpts), host: address, lookup: undefined }), done!);
      return undefined;
    }
  }
  class GuardedHttps extends https.Agent {
    override createConnection(opts: https.RequestOptions, done?: Connect): Duplex | null | undefined {
      connectTo(opts, (address) => tls.connect({ ...(opts as ConnectionOptions), host: address, lookup: undefined }), done!);
      return undefined;
    }
  }
  return { http: new GuardedHttp(options), https: new GuardedHttps(options) };
}
