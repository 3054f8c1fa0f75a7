import { DomainError } from '../common/errors/domain-error.js';
import { CompactEncrypt, type CompactJWEHeaderParameters } from 'jose';
import { createSecretKey, randomBytes } from 'node:crypto';
import { checkCompactJweHeader, decodeSharedSecret, decryptCompactJwe, tokenKeyFromSecret, validateLoginClaims } from './login-token.js';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e.definition.error;
    throw e;
  }
  return 'no error';
};

describe('decodeSharedSecret (spec rule 3: two hex characters per byte)', () => {
  it('decodes each pair of hex characters into one byte, either case', () => {
    expect([...decodeSharedSecret('00ff7Fa0')]).toEqual([0, 255, 127, 160]);
  });
  it('gives an empty key for an empty secret', () => {
    expect(decodeSharedSecret('')).toHaveLength(0);
  });
  it('gives an empty key for an odd-length secret', () => {
    expect(decodeSharedSecret('abc')).toHaveLength(0);
    expect(decodeSharedSecret('a'.repeat(63))).toHaveLength(0);
  });
  it('gives an empty key (not a shortened one) when a pair is not hex', () => {
    expect(decodeSharedSecret('00zz11')).toHaveLength(0);
    expect(decodeSharedSecret('0x00')).toHaveLength(0);
  });
});

describe('tokenKeyFromSecret', () => {
  it('accepts a secret of 64 hex characters (32 bytes)', () => {
    expect(tokenKeyFromSecret('ab'.repeat(32))).toHaveLength(32);
  });
  it.each([
    ['empty', ''],
    ['odd length', 'abc'],
    ['16 bytes', 'ab'.repeat(16)],
    ['33 bytes', 'ab'.repeat(33)],
    ['not hex', 'zz'.repeat(32)],
  ])('refuses a %s secret with tenant_secret_unusable', (_n, secret) => {
    expect(errorOf(() => tokenKeyFromSecret(secret))).toBe('tenant_secret_unusable');
  });
});

describe('checkCompactJweHeader', () => {
  const jwe = (h: unknown, key = '') => `${b64(h)}.${key}.aXZpdml2aXZpdml2.Y2lwaGVy.dGFndGFndGFndGFn`;
  it('accepts alg dir with enc A256GCM', () => {
    expect(() => checkCompactJweHeader(jwe({ alg: 'dir', enc: 'A256GCM' }))).not.toThrow();
  });
  it.each([
    ['alg none', { alg: 'none', enc: 'A256GCM' }],
    ['alg A256KW', { alg: 'A256KW', enc: 'A256GCM' }],
    ['enc A128GCM', { alg: 'dir', enc: 'A128GCM' }],
    ['enc A256CBC-HS512', { alg: 'dir', enc: 'A256CBC-HS512' }],
    ['alg in another case', { alg: 'DIR', enc: 'A256GCM' }],
    ['missing enc', { alg: 'dir' }],
    ['zip', { alg: 'dir', enc: 'A256GCM', zip: 'DEF' }],
    ['crit', { alg: 'dir', enc: 'A256GCM', crit: ['x'], x: 1 }],
  ])('refuses %s with login_token_algorithm', (_n, header) => {
    expect(errorOf(() => checkCompactJweHeader(jwe(header)))).toBe('login_token_algorithm');
  });
  it('refuses a compact JWS (three parts) as login_token_algorithm', () => {
    expect(errorOf(() => checkCompactJweHeader(`${b64({ alg: 'HS256' })}.${b64({ sub: 'x' })}.c2ln`))).toBe('login_token_algorithm');
  });
  it('refuses an encrypted key part (not dir)', () => {
    expect(errorOf(() => checkCompactJweHeader(jwe({ alg: 'dir', enc: 'A256GCM' }, 'a2V5')))).toBe('login_token_algorithm');
  });
  it.each([
    ['four parts', 'a.b.c.d'],
    ['six parts', 'a..b.c.d.e'],
    ['not base64url', `${b64({ alg: 'dir', enc: 'A256GCM' })}..i+v.c.t`],
    ['a header that is not JSON', `${Buffer.from('nope').toString('base64url')}..aXY.Y2lwaGVy.dGFn`],
    ['a header that is an array', `${b64(['dir'])}..aXY.Y2lwaGVy.dGFn`],
    ['an empty ciphertext part', `${b64({ alg: 'dir', enc: 'A256GCM' })}..aXY..dGFn`],
  ])('refuses %s with login_token_invalid', (_n, token) => {
    expect(errorOf(() => checkCompactJweHeader(token))).toBe('login_token_invalid');
  });
});

describe('validateLoginClaims', () => {
  const now = 1_700_000_000;
  const valid = {
    _nonce: '0123456789abcdef',
    subjectId: 'sub-1',
    handle: 'ada',
    idToken: 'x.y.z',
    accessToken: 'at',
    refreshToken: 'rt',
    referrerHandle: null,
    iat: now,
    exp: now + 300,
  };
  it('accepts the claims of spec rule 2 and treats null as absent', () => {
    expect(validateLoginClaims(valid, now, 30, 'providerB')).toMatchObject({
      nonce: '0123456789abcdef',
      subjectId: 'sub-1',
      handle: 'ada',
      referrerHandle: undefined,
      exp: now + 300,
    });
  });
  it('accepts a token within the clock tolerance on both sides', () => {
    expect(() => validateLoginClaims(valid, now + 300 + 29, 30, 'providerB')).not.toThrow();
    expect(() => validateLoginClaims(valid, now - 29, 30, 'providerB')).not.toThrow();
  });
  it.each([
    ['missing _nonce', { _nonce: undefined }],
    ['a _nonce of 7 bytes', { _nonce: '0123456789abcd' }],
    ['a _nonce that is not hex', { _nonce: '0123456789abcdeg' }],
    ['missing subjectId', { subjectId: undefined }],
    ['an empty subjectId', { subjectId: ' ' }],
    ['a numeric subjectId', { subjectId: 42 }],
    ['missing handle', { handle: undefined }],
    ['an accessToken object', { accessToken: { a: 1 } }],
    ['missing iat', { iat: undefined }],
    ['a string exp', { exp: String(now + 300) }],
    ['a fractional iat', { iat: now + 0.5 }],
    ['exp before iat', { exp: now - 1 }],
    ['a lifetime over 300 s', { exp: now + 301 }],
  ])('refuses %s with login_token_claims', (_n, patch) => {
    expect(errorOf(() => validateLoginClaims({ ...valid, ...patch }, now, 30, 'providerB'))).toBe('login_token_claims');
  });
  it('refuses a payload that is not an object', () => {
    expect(errorOf(() => validateLoginClaims([1], now, 30, 'providerB'))).toBe('login_token_claims');
  });
  it('refuses an expired token beyond the tolerance', () => {
    expect(errorOf(() => validateLoginClaims(valid, now + 300 + 30, 30, 'providerB'))).toBe('login_token_expired');
  });
  it('refuses a token issued in the future beyond the tolerance', () => {
    expect(errorOf(() => validateLoginClaims(valid, now - 31, 30, 'providerB'))).toBe('login_token_not_yet_valid');
  });
});

describe('the provider claim', () => {
  const now = 1_800_000_000;
  const claims = (extra: Record<string, unknown> = {}) => ({
    _nonce: '0123456789abcdef',
    subjectId: 's',
    handle: 'h',
    iat: now,
    exp: now + 300,
    ...extra,
  });

  it('is optional: a token without it is accepted at any endpoint', () => {
    expect(validateLoginClaims(claims(), now, 30, 'providerB').provider).toBeUndefined();
    expect(validateLoginClaims(claims({ provider: null }), now, 30, 'providerC').provider).toBeUndefined();
  });

  it('must name the endpoint that receives the token', () => {
    expect(validateLoginClaims(claims({ provider: 'providerB' }), now, 30, 'providerB').provider).toBe('providerB');
    expect(errorOf(() => validateLoginClaims(claims({ provider: 'providerC' }), now, 30, 'providerB'))).toBe('login_token_provider');
    expect(errorOf(() => validateLoginClaims(claims({ provider: 'ProviderB' }), now, 30, 'providerB'))).toBe('login_token_provider');
    expect(errorOf(() => validateLoginClaims(claims({ provider: ['providerB'] }), now, 30, 'providerB'))).toBe('login_token_claims');
  });
});

describe('decryptCompactJwe (dir + A256GCM with node:crypto; jose is the reference)', () => {
  const key = randomBytes(32);
  const plaintext = JSON.stringify({ _nonce: '0123456789abcdef', subjectId: 's', handle: 'h', idToken: 'x'.repeat(500) });
  const encrypt = (k: Uint8Array = key, header: CompactJWEHeaderParameters = { alg: 'dir', enc: 'A256GCM' }) =>
    new CompactEncrypt(new TextEncoder().encode(plaintext)).setProtectedHeader(header).encrypt(k);
  const part = (token: string, i: number, value: string) =>
    token
      .split('.')
      .map((p, j) => (j === i ? value : p))
      .join('.');

  it('decrypts what jose encrypts, with extra protected header fields too', async () => {
    expect(decryptCompactJwe(await encrypt(), createSecretKey(key))?.toString('utf8')).toBe(plaintext);
    expect(decryptCompactJwe(await encrypt(key, { alg: 'dir', enc: 'A256GCM', kid: 'k1' }), createSecretKey(key))?.toString('utf8')).toBe(
      plaintext,
    );
  });

  it('refuses another key, a changed header, ciphertext, iv or tag (null, never a partial plaintext)', async () => {
    const token = await encrypt();
    const [header, , iv, ciphertext, tag] = token.split('.');
    expect(decryptCompactJwe(token, createSecretKey(randomBytes(32)))).toBeNull();
    // The protected header is authenticated (the additional data).
    const otherHeader = Buffer.from(JSON.stringify({ enc: 'A256GCM', alg: 'dir' })).toString('base64url');
    expect(otherHeader).not.toBe(header);
    expect(decryptCompactJwe(part(token, 0, otherHeader), createSecretKey(key))).toBeNull();
    const flip = (b64: string) => {
      const b = Buffer.from(b64, 'base64url');
      b[0] ^= 1;
      return b.toString('base64url');
    };
    expect(decryptCompactJwe(part(token, 3, flip(ciphertext)), createSecretKey(key))).toBeNull();
    expect(decryptCompactJwe(part(token, 2, flip(iv)), createSecretKey(key))).toBeNull();
    expect(decryptCompactJwe(part(token, 4, flip(tag)), createSecretKey(key))).toBeNull();
  });

  it('refuses an iv or tag of another length (a truncated tag would weaken the check)', async () => {
    const token = await encrypt();
    const [, , iv, , tag] = token.split('.');
    const cut = (b64: string, n: number) => Buffer.from(b64, 'base64url').subarray(0, n).toString('base64url');
    expect(decryptCompactJwe(part(token, 4, cut(tag, 12)), createSecretKey(key))).toBeNull();
    expect(decryptCompactJwe(part(token, 4, cut(tag, 4)), createSecretKey(key))).toBeNull();
    expect(decryptCompactJwe(part(token, 2, cut(iv, 8)), createSecretKey(key))).toBeNull();
    expect(decryptCompactJwe(part(token, 2, ''), createSecretKey(key))).toBeNull();
  });
});
