import { CompactEncrypt } from 'jose';
import { randomBytes } from 'node:crypto';
import { EncryptionService } from '../../src/crypto/encryption.service.js';
import { TenantsService, type TenantCredentials } from '../../src/tenants/tenants.service.js';
import { keyFromHex, loginToken } from '../helpers/auth.js';
import { givenUser } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';
import { expectError } from '../helpers/errors.js';
import { uniqueName, uniqueHandle } from '../factories/unique-name.js';

describe('OAuth token logins (providerB, providerC): the encrypted token of spec rule 2', () => {
  const t = useTestApp({}, { resetClock: true });
  let tenant: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
  });

  const login = (provider: 'providerB' | 'providerC', body: object, tenantRef = tenant.id) =>
    t.http().post(`/v1/user/auth/${provider}/login`).set('X-Tenant-Id', tenantRef).send(body);

  it('creates the user on the first login, finds it on the next, and returns a working session', async () => {
    const subjectId = uniqueName('b');
    const first = await login('providerB', { token: await loginToken(t, tenant.sharedSecret, { subjectId, handle: 'Bee Player' }) });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['refreshToken', 'sessionToken', 'userId']);
    const second = await login('providerB', { token: await loginToken(t, tenant.sharedSecret, { subjectId, handle: 'renamed' }) });
    expect(second.status).toBe(200);
    expect(second.body.userId).toBe(first.body.userId);
    const session = await t.http().get('/v1/user/auth/session').set('Authorization', `Bearer ${second.body.sessionToken}`);
    expect(session.body).toEqual({ userId: first.body.userId, tenantId: tenant.id });
    const [user] = await t.dataSource.query('SELECT handle FROM users WHERE id = $1', [first.body.userId]);
    expect(user.handle).toBe('Bee_Player');
  });

  it('keeps providers apart: the same subjectId with providerC is another user', async () => {
    const subjectId = uniqueName('same');
    const b = await login('providerB', { token: await loginToken(t, tenant.sharedSecret, { subjectId }) });
    const c = await login('providerC', { token: await loginToken(t, tenant.sharedSecret, { subjectId }) });
    expect(b.status).toBe(200);
    expect(c.status).toBe(200);
    expect(c.body.userId).not.toBe(b.body.userId);
  });

  it('makes a taken handle unique', async () => {
    const a = await login('providerB', { token: await loginToken(t, tenant.sharedSecret, { handle: 'twin_handle' }) });
    const b = await login('providerB', { token: await loginToken(t, tenant.sharedSecret, { handle: 'twin_handle' }) });
    const rows = await t.dataSource.query('SELECT handle FROM users WHERE id = ANY($1) ORDER BY created_at', [
      [a.body.userId, b.body.userId],
    ]);
    expect(rows[0].handle).toBe('twin_handle');
    expect(rows[1].handle).toMatch(/^twin_handle_\d{4}$/);
  });

  it('stores the provider tokens encrypted, never in clear, and the body accessToken wins over the claim', async () => {
    const subjectId = uniqueName('enc');
    const res = await login('providerC', {
      token: await loginToken(t, tenant.sharedSecret, { subjectId, accessToken: 'claim-access', refreshToken: 'claim-refresh' }),
      accessToken: 'body-access',
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toMatch(/access|refresh-token|claim/);
    const [row] = await t.dataSource.query('SELECT * FROM identities WHERE tenant_id = $1 AND provider = $2 AND subject_id = $3', [
      tenant.id,
      'providerC',
      subjectId,
    ]);
    expect(JSON.stringify(row)).not.toMatch(/body-access|claim-refresh|claim-access/);
    const enc = t.app.get(EncryptionService);
    const ctx = (f: string) => `identity:${tenant.id}:providerC:${subjectId}:${f}`;
    expect(await enc.decrypt(row.access_token_enc, ctx('accessToken'))).toBe('body-access');
    expect(await enc.decrypt(row.refresh_token_enc, ctx('refreshToken'))).toBe('claim-refresh');
    // bound to its column: the access token ciphertext does not decrypt as the refresh token
    await expect(enc.decrypt(row.access_token_enc, ctx('refreshToken'))).rejects.toThrow();
  });

  describe('referrals at sign-up', () => {
    it('records the referrer of a new user; the body referrerHandle wins over the claim', async () => {
      const referrer = await givenUser(t, tenant);
      const other = await givenUser(t, tenant);
      const res = await login('providerB', {
        token: await loginToken(t, tenant.sharedSecret, { referrerHandle: other.username }),
        referrerHandle: referrer.username,
      });
      expect(res.status).toBe(200);
      const rows = await t.dataSource.query('SELECT referrer_id, community_id FROM referrals WHERE referred_id = $1', [res.body.userId]);
      expect(rows).toEqual([{ referrer_id: referrer.userId, community_id: null }]);
    });

    it('uses the claim referrerHandle when the body has none', async () => {
      const referrer = await givenUser(t, tenant);
      const res = await login('providerB', { token: await loginToken(t, tenant.sharedSecret, { referrerHandle: referrer.username }) });
      const rows = await t.dataSource.query('SELECT referrer_id FROM referrals WHERE referred_id = $1', [res.body.userId]);
      expect(rows).toEqual([{ referrer_id: referrer.userId }]);
    });

    it('never changes the referrer of an existing user', async () => {
      const first = await givenUser(t, tenant);
      const later = await givenUser(t, tenant);
      const subjectId = uniqueName('ref');
      const a = await login('providerB', {
        token: await loginToken(t, tenant.sharedSecret, { subjectId }),
        referrerHandle: first.username,
      });
      const b = await login('providerB', {
        token: await loginToken(t, tenant.sharedSecret, { subjectId }),
        referrerHandle: later.username,
      });
      expect(b.status).toBe(200);
      const rows = await t.dataSource.query('SELECT referrer_id FROM referrals WHERE referred_id = $1', [a.body.userId]);
      expect(rows).toEqual([{ referrer_id: first.userId }]);
    });

    it('ignores an unknown referrer handle: the user is created without a referrer', async () => {
      const res = await login('providerB', { token: await loginToken(t, tenant.sharedSecret), referrerHandle: 'nobody_with_this_handle' });
      expect(res.status).toBe(200);
      expect(await t.dataSource.query('SELECT 1 FROM referrals WHERE referred_id = $1', [res.body.userId])).toEqual([]);
    });

    it('refuses a self-referral with 400 and creates nothing', async () => {
      const handle = uniqueHandle('selfref');
      const subjectId = uniqueName('self');
      const res = await login('providerB', {
        token: await loginToken(t, tenant.sharedSecret, { subjectId, handle }),
        referrerHandle: handle,
      });
      expectError(res, 400, 10002, 'self_referral');
      expect(await t.dataSource.query('SELECT 1 FROM identities WHERE subject_id = $1', [subjectId])).toEqual([]);
    });
  });

  describe('refused tokens', () => {
    const encrypt = (payload: object, key: Uint8Array, header: Record<string, unknown> = { alg: 'dir', enc: 'A256GCM' }) =>
      new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader(header as { alg: string; enc: string })
        .encrypt(key);

    it('a token whose provider claim names another endpoint; the nonce stays usable where it belongs', async () => {
      const token = await loginToken(t, tenant.sharedSecret, { provider: 'providerC' });
      expectError(await login('providerB', { token }), 401, 12008, 'login_token_provider');
      expect((await login('providerC', { token })).status).toBe(200);
      const zk = await t
        .http()
        .post('/v1/user/auth/providerA/zklogin')
        .set('X-Tenant-Id', tenant.id)
        .send({ token: await loginToken(t, tenant.sharedSecret, { provider: 'providerB' }) });
      expectError(zk, 401, 12008, 'login_token_provider');
      // a token without the claim is still accepted everywhere (the claim is optional)
      expect((await login('providerB', { token: await loginToken(t, tenant.sharedSecret, { provider: undefined }) })).status).toBe(200);
      expectError(
        await login('providerB', { token: await loginToken(t, tenant.sharedSecret, { provider: 42 }) }),
        401,
        12005,
        'login_token_claims',
      );
    });

    it('a token encrypted with another key', async () => {
      expectError(
        await login('providerB', { token: await loginToken(t, tenant.sharedSecret, {}, { key: randomBytes(32) }) }),
        401,
        12001,
        'login_token_invalid',
      );
    });

    it('a token of another tenant', async () => {
      const other = await t.givenTenant();
      expectError(await login('providerB', { token: await loginToken(t, other.sharedSecret) }), 401, 12001, 'login_token_invalid');
    });

    // The token key is kept per stored ciphertext of the secret: a rotation must not leave the old key in use.
    it("a token encrypted with the tenant's shared secret from before its rotation", async () => {
      const rotating = await t.givenTenant();
      const subjectId = uniqueName('rot');
      expect((await login('providerB', { token: await loginToken(t, rotating.sharedSecret, { subjectId }) }, rotating.id)).status).toBe(
        200,
      );
      const { sharedSecret } = await t.app.get(TenantsService).rotate(rotating.id, { sharedSecret: true });
      expectError(
        await login('providerB', { token: await loginToken(t, rotating.sharedSecret, { subjectId }) }, rotating.id),
        401,
        12001,
        'login_token_invalid',
      );
      expect((await login('providerB', { token: await loginToken(t, sharedSecret!, { subjectId }) }, rotating.id)).status).toBe(200);
    });

    it('a tampered ciphertext, tag or header', async () => {
      const token = await loginToken(t, tenant.sharedSecret);
      const [h, k, iv, c, tag] = token.split('.');
      const flip = (s: string) => `${s.slice(0, -2)}${s.slice(-2, -1) === 'A' ? 'B' : 'A'}${s.slice(-1)}`;
      const headerPlus = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM', kid: 'x' })).toString('base64url');
      for (const forged of [
        [h, k, iv, flip(c), tag],
        [h, k, iv, c, flip(tag)],
        [h, k, flip(iv), c, tag],
        [headerPlus, k, iv, c, tag],
      ]) {
        expectError(await login('providerB', { token: forged.join('.') }), 401, 12001, 'login_token_invalid');
      }
    });

    it.each([
      ['alg A256KW', { alg: 'A256KW', enc: 'A256GCM' }],
      ['enc A128GCM', { alg: 'dir', enc: 'A128GCM' }],
      ['enc A256CBC-HS512', { alg: 'dir', enc: 'A256CBC-HS512' }],
    ])('a token with %s', async (_n, header) => {
      const key =
        header.enc === 'A128GCM'
          ? keyFromHex(tenant.sharedSecret).slice(0, 16)
          : header.enc === 'A256CBC-HS512'
            ? randomBytes(64)
            : keyFromHex(tenant.sharedSecret);
      const token = await loginToken(t, tenant.sharedSecret, {}, { header, key });
      expectError(await login('providerB', { token }), 401, 12002, 'login_token_algorithm');
    });

    it('alg none', async () => {
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', enc: 'A256GCM' })).toString('base64url')}..aXZpdml2aXZpdml2.Y2lwaGVy.dGFndGFndGFndGFn`;
      expectError(await login('providerB', { token: none }), 401, 12002, 'login_token_algorithm');
    });

    it('a compact JWS posing as the token', async () => {
      const { SignJWT } = await import('jose');
      const iat = t.clock.nowSeconds();
      const jws = await new SignJWT({ _nonce: randomBytes(8).toString('hex'), subjectId: 'x', handle: 'x', iat, exp: iat + 300 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(keyFromHex(tenant.sharedSecret));
      expectError(await login('providerB', { token: jws }), 401, 12002, 'login_token_algorithm');
    });

    it('garbage that is not a JWE', async () => {
      expectError(await login('providerB', { token: 'not-a-token' }), 401, 12001, 'login_token_invalid');
    });

    it('an expired token (past exp beyond the 30 s tolerance)', async () => {
      const token = await loginToken(t, tenant.sharedSecret);
      t.clock.advance(331_000);
      expectError(await login('providerB', { token }), 401, 12003, 'login_token_expired');
    });

    it('accepts a token just inside the clock tolerance', async () => {
      const token = await loginToken(t, tenant.sharedSecret);
      t.clock.advance(320_000);
      expect((await login('providerB', { token })).status).toBe(200);
    });

    it('a token issued in the future', async () => {
      t.clock.advance(120_000);
      const token = await loginToken(t, tenant.sharedSecret);
      t.clock.reset();
      expectError(await login('providerB', { token }), 401, 12004, 'login_token_not_yet_valid');
    });

    it('a token that lives longer than 300 s', async () => {
      const iat = t.clock.nowSeconds();
      expectError(
        await login('providerB', { token: await loginToken(t, tenant.sharedSecret, { iat, exp: iat + 3600 }) }),
        401,
        12005,
        'login_token_claims',
      );
    });

    it.each([['_nonce'], ['subjectId'], ['handle'], ['iat'], ['exp']])('a token without %s', async (claim) => {
      expectError(
        await login('providerC', { token: await loginToken(t, tenant.sharedSecret, { [claim]: undefined }) }),
        401,
        12005,
        'login_token_claims',
      );
    });

    it('a token with an ill-typed claim', async () => {
      expectError(
        await login('providerC', { token: await loginToken(t, tenant.sharedSecret, { subjectId: 12345 }) }),
        401,
        12005,
        'login_token_claims',
      );
      expectError(
        await login('providerC', { token: await loginToken(t, tenant.sharedSecret, { _nonce: 'short' }) }),
        401,
        12005,
        'login_token_claims',
      );
    });

    it('a payload that is not JSON', async () => {
      const token = await new CompactEncrypt(new TextEncoder().encode('not json'))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .encrypt(keyFromHex(tenant.sharedSecret));
      expectError(await login('providerB', { token }), 401, 12005, 'login_token_claims');
      expectError(
        await login('providerB', { token: await encrypt([1, 2], keyFromHex(tenant.sharedSecret)) }),
        401,
        12005,
        'login_token_claims',
      );
    });

    it('a replayed _nonce, even within the token lifetime', async () => {
      const token = await loginToken(t, tenant.sharedSecret);
      expect((await login('providerB', { token })).status).toBe(200);
      expectError(await login('providerB', { token }), 401, 12006, 'login_token_replayed');
      // the same nonce in a freshly encrypted token is still a replay
      const nonce = randomBytes(8).toString('hex');
      expect((await login('providerC', { token: await loginToken(t, tenant.sharedSecret, { _nonce: nonce }) })).status).toBe(200);
      expectError(
        await login('providerC', { token: await loginToken(t, tenant.sharedSecret, { _nonce: nonce }) }),
        401,
        12006,
        'login_token_replayed',
      );
    });

    it('a replay sent concurrently logs in exactly once', async () => {
      const token = await loginToken(t, tenant.sharedSecret);
      const results = await Promise.all(Array.from({ length: 6 }, () => login('providerB', { token })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
      expect(results.filter((r) => r.status === 401).every((r) => r.body.error === 'login_token_replayed')).toBe(true);
    });

    it('concurrent first logins of one identity make one user', async () => {
      const subjectId = uniqueName('race');
      const results = await Promise.all(
        Array.from({ length: 5 }, async () => login('providerB', { token: await loginToken(t, tenant.sharedSecret, { subjectId }) })),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(results.map((r) => r.body.userId)).size).toBe(1);
    });

    it('bad bodies: missing token, unknown field, oversized token', async () => {
      expectError(await login('providerB', {}), 400, 10002, 'validation_failed');
      expectError(await login('providerB', { token: 'x', credential: 'y' }), 400, 10002, 'validation_failed');
      expectError(await login('providerB', { token: 'x'.repeat(16_385) }), 400, 10002, 'validation_failed');
      expectError(await login('providerB', { token: 42 }), 400, 10002, 'validation_failed');
    });
  });

  describe('tenant shared secrets that give no usable key (spec rule 3)', () => {
    const tenantWithSecret = async (secret: string) => t.app.get(TenantsService).create({ slug: uniqueName('s'), sharedSecret: secret });

    it.each([
      ['empty', ''],
      ['odd-length', 'abc'],
      ['16-byte', 'ab'.repeat(16)],
      ['non-hex', 'zz'.repeat(32)],
    ])('an %s secret refuses every token, including one encrypted with the empty or zero key', async (_n, secret) => {
      const weak = await tenantWithSecret(secret);
      const attempts = [
        await loginToken(t, '', {}, { key: new Uint8Array(32) }),
        await loginToken(t, '', {}, { key: keyFromHex('ab'.repeat(32)) }),
      ];
      for (const token of attempts) {
        expectError(await login('providerB', { token }, weak.id), 401, 12007, 'tenant_secret_unusable');
      }
    });

    it('a tenant with a 32-byte secret in upper-case hex works', async () => {
      const secret = randomBytes(32).toString('hex').toUpperCase();
      const upper = await tenantWithSecret(secret);
      expect((await login('providerB', { token: await loginToken(t, secret) }, upper.id)).status).toBe(200);
    });
  });
});
