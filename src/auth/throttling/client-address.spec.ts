import { clientKey } from './client-address.js';

describe('clientKey (what a login rate limit counts per address)', () => {
  it('keeps IPv4 addresses, also IPv4-mapped ones', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts IPv6 addresses by their /64, however they are written', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
  });

  it('never fails on something that is not an address', () => {
    expect(clientKey(undefined)).toBe('unknown');
    expect(clientKey('not-an-ip')).toBe('not-an-ip');
    const long = `${'a'.repeat(5000)}:1`;
    expect(clientKey(long)).toBe(long);
  });

  it('answers the same for an address seen before (kept)', () => {
    for (let i = 0; i < 3; i++) {
      expect(clientKey('::ffff:198.51.100.9')).toBe('198.51.100.9');
      expect(clientKey('2001:db8:9:9::5')).toBe('2001:db8:9:9::/64');
    }
  });
});
