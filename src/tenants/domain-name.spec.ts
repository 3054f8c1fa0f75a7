import { parseDomain, requestHostKey } from './domain-name.js';

describe('parseDomain', () => {
  it.each([
    ['play.acme.gg', 'play.acme.gg'],
    ['Play.ACME.gg', 'play.acme.gg'],
    ['play.acme.gg.', 'play.acme.gg'],
    ['play.acme.gg:8443', 'play.acme.gg'],
    ['Play.Acme.GG.:443', 'play.acme.gg'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['BÜCHER.example', 'xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['ａｃｍｅ.gg', 'acme.gg'],
    ['play。acme.gg', 'play.acme.gg'],
    ['localhost', 'localhost'],
    [`${'a'.repeat(63)}.gg`, `${'a'.repeat(63)}.gg`],
  ])('normalises %j to %j', (input, domain) => {
    expect(parseDomain(input)).toEqual({ domain });
  });

  it.each([
    '',
    '.',
    'https://play.acme.gg',
    'play.acme.gg/path',
    'user@play.acme.gg',
    '*.acme.gg',
    'play_1.acme.gg',
    'play acme.gg',
    ' play.acme.gg',
    'play.acme.gg:0',
    'play.acme.gg:70000',
    'a..b',
    '-a.gg',
    'a-.gg',
    `${'a'.repeat(64)}.gg`,
    `${'a.'.repeat(127)}gg`,
    '1.2.3.4',
    '[::1]',
    '::1',
    'a%41.gg',
    'xn--a.gg',
    'a\u0000b.gg',
  ])('refuses %j with a reason', (input) => {
    expect(parseDomain(input)).toEqual({ invalid: expect.any(String) });
  });
});

describe('requestHostKey', () => {
  it('matches the stored form whatever the case and trailing dot', () => {
    expect(requestHostKey('Play.ACME.gg.')).toBe('play.acme.gg');
    expect(requestHostKey('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
  });

  it('reads a raw UTF-8 host name that Node decoded as latin1', () => {
    const latin1 = Buffer.from('bücher.example', 'utf8').toString('latin1');
    expect(requestHostKey(latin1)).toBe('xn--bcher-kva.example');
  });

  it('gives no key, never an error, for what is no domain name', () => {
    expect(requestHostKey(undefined)).toBeUndefined();
    expect(requestHostKey('')).toBeUndefined();
    expect(requestHostKey('app_1')).toBeUndefined();
    expect(requestHostKey('[::1]')).toBeUndefined();
    expect(requestHostKey('x'.repeat(300))).toBeUndefined();
  });
});
