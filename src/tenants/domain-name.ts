import { domainToASCII, domainToUnicode } from 'node:url';

/** Longest host name DNS allows (RFC 1035), in its ASCII (punycode) form. */
export const MAX_DOMAIN_LENGTH = 253;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const PORT = /:(\d{1,5})$/;

export type DomainParse = { domain: string } | { invalid: string };

/**
 * The one form a tenant domain is stored and matched in: lower case, no port, no trailing dot,
 * IDN labels as punycode (UTS #46, as browsers send them). `Play.Bücher.example.:8443` becomes
 * `play.xn--bcher-kva.example`. Refused, with the reason: a scheme, path, user, wildcard or any
 * ASCII character outside letters, digits, `-` and `.`; an IP address; an empty, over-long or
 * hyphen-edged label; more than 253 characters.
 */
export function parseDomain(input: string): DomainParse {
  let value = input;
  const port = PORT.exec(value);
  if (port) {
    if (Number(port[1]) < 1 || Number(port[1]) > 65535) return { invalid: 'the port is not 1-65535' };
    value = value.slice(0, port.index);
  }
  if (value.endsWith('.')) value = value.slice(0, -1);
  if (!value) return { invalid: 'empty' };
  // domainToASCII parses a URL host: it would cut `a/b` to `a` and decode `%41`, so only the
  // characters of a host name may reach it.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u002c\u002f\u003a-\u0040\u005b-\u0060\u007b-\u007f\s]/u.test(value)) {
    return { invalid: 'a host name only: letters, digits, "-" and "." (no scheme, path, port range, wildcard or space)' };
  }
  // Plain lower-case ASCII needs no mapping; punycode labels (`xn--`) are still checked by it.
  const ascii = /^[a-z0-9.-]*$/.test(value) && !value.includes('xn--') ? value : domainToASCII(value);
  if (!ascii) return { invalid: 'not a valid internationalised domain name' };
  if (ascii.length > MAX_DOMAIN_LENGTH) return { invalid: `longer than ${MAX_DOMAIN_LENGTH} characters` };
  const labels = ascii.toLowerCase().split('.');
  if (!labels.every((l) => LABEL.test(l)))
    return { invalid: 'every label is 1-63 letters, digits or "-", not starting or ending with "-"' };
  // A punycode label must decode. Node 24's URL parser (ada 4) passes `xn--a` through
  // domainToASCII unchanged where Node 20 and 22 refuse it; domainToUnicode leaves it undecoded.
  if (labels.some((l) => l.startsWith('xn--') && (domainToUnicode(l) || l).startsWith('xn--')))
    return { invalid: 'not a valid internationalised domain name' };
  // Also refuses IPv4 addresses: a top-level label is never all digits.
  if (/^\d+$/.test(labels.at(-1)!)) return { invalid: 'an IP address is not a domain' };
  return { domain: labels.join('.') };
}

/**
 * The key a request's host name (Express `req.hostname`: the Host header, or X-Forwarded-Host from a
 * trusted proxy, without the port) is looked up by. Never throws: a host that is no domain name
 * (an IP address, a container name with `_`) simply matches no tenant domain.
 */
export function requestHostKey(hostname: string | undefined): string | undefined {
  if (!hostname || hostname.length > MAX_DOMAIN_LENGTH + 1) return undefined;
  const lower = hostname.toLowerCase();
  if (/^[a-z0-9.-]+$/.test(lower)) return lower.endsWith('.') ? lower.slice(0, -1) : lower;
  // Node reads header bytes as latin1: a client that sent a raw UTF-8 name gets it back.
  // eslint-disable-next-line no-control-regex -- the whole latin1 range, NUL included
  const parsed = parseDomain(/[^\u0000-\u00ff]/.test(hostname) ? hostname : Buffer.from(hostname, 'latin1').toString('utf8'));
  return 'domain' in parsed ? parsed.domain : undefined;
}
