import { randomBytes } from 'node:crypto';
import { TenantsService, type TenantCredentials } from '../../src/tenants/tenants.service.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/auth.js';
import { givenUser } from '../helpers/factories.js';
import { createTestApp, useTestApp, type TestApp } from '../helpers/test-app.js';
import { expectError } from '../helpers/errors.js';
import { uniqueName } from '../factories/unique-name.js';

const CLIENT_ID = 'client-a.apps.test';

describe('providerA credential login (OpenID Connect ID token verified against a JWKS)', () => {
  let t: TestApp;
  let idp: TestOidcProvider;
  let tenant: TenantCredentials;

  beforeAll(async () => {
    idp = await startOidcProvider();
    t = await createTestApp({ PROVIDER_A_JWKS_URL: idp.jwksUrl, PROVIDER_A_ISSUER: idp.issuer, PROVIDER_A_JWKS_COOLDOWN_SECONDS: '0' });
    tenant = await t.givenTenant();
    await t.app.get(TenantsService).updateSettings(tenant.id, { providerAClientId: CLIENT_ID });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });
  afterEach(() => t.clock.reset());

  const login = (body: object, tenantRef = tenant.id) =>
    t.http().post('/v1/user/auth/providerA/login').set('X-Tenant-Id', tenantRef).send(body);
  const sub = () => uniqueName('a');

  it('logs in with a valid credential, creates the user once, takes the handle from the profile claims', async () => {
    const s = sub();
    const first = await login({ credential: await idp.sign({ aud: CLIENT_ID, sub: s, preferred_username: 'Alice A' }) });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['refreshToken', 'sessionToken', 'userId']);
    const again = await login({ credential: await idp.sign({ aud: CLIENT_ID, sub: s }) });
    expect(again.body.userId).toBe(first.body.userId);
    const [u] = await t.dataSource.query('SELECT handle FROM users WHERE id = $1', [first.body.userId]);
    expect(u.handle).toBe('Alice_A');
    const [identity] = await t.dataSource.query('SELECT id_token_enc FROM identities WHERE user_id = $1', [first.body.userId]);
    expect(identity.id_token_enc).toMatch(/^v1\./);
  });

  it('records the referrer of a new user', async () => {
    const referrer = await givenUser(t, tenant);
    const res = await login({ credential: await idp.sign({ aud: CLIENT_ID, sub: sub() }), referrerHandle: referrer.username });
    expect(await t.dataSource.query('SELECT referrer_id FROM referrals WHERE referred_id = $1', [res.body.userId])).toEqual([
      { referrer_id: referrer.userId },
    ]);
  });

  it('follows key rotation: a token signed with a new key is accepted after the JWKS changes', async () => {
    await idp.rotate(true);
    const before = idp.fetches();
    const res = await login({ credential: await idp.sign({ aud: CLIENT_ID, sub: sub() }) });
    expect(res.status).toBe(200);
    expect(idp.fetches()).toBeGreaterThan(before);
  });

  it('caches the key set between logins', async () => {
    await login({ credential: await idp.sign({ aud: CLIENT_ID, sub: sub() }) });
    const before = idp.fetches();
    for (let i = 0; i < 3; i++) expect((await login({ credential: await idp.sign({ aud: CLIENT_ID, sub: sub() }) })).status).toBe(200);
    expect(idp.fetches()).toBe(before);
  });

  describe('refused credentials', () => {
    it('wrong audience', async () => {
      expectError(await login({ credential: await idp.sign({ aud: 'another-client', sub: sub() }) }), 401, 12010, 'credential_invalid');
    });
    it('wrong issuer', async () => {
      expectError(
        await login({ credential: await idp.sign({ iss: 'https://evil.test', aud: CLIENT_ID, sub: sub() }) }),
        401,
        12010,
        'credential_invalid',
      );
    });
    it('expired (beyond the clock tolerance)', async () => {
      const iat = Math.floor(Date.now() / 1000) - 7200;
      expectError(
        await login({ credential: await idp.sign({ aud: CLIENT_ID, sub: sub() }, { iat, expiresIn: 3600 }) }),
        401,
        12011,
        'credential_expired',
      );
    });
    it('expired on the service clock', async () => {
      const credential = await idp.sign({ aud: CLIENT_ID, sub: sub() }, { expiresIn: 60 });
      t.clock.advance(120_000);
      expectError(await login({ credential }), 401, 12011, 'credential_expired');
    });
    it('unknown kid', async () => {
      expectError(
        await login({ credential: await idp.sign({ aud: CLIENT_ID, sub: sub() }, { kid: 'no-such-key' }) }),
        401,
        12010,
        'credential_invalid',
      );
    });
    it('signed by a key the provider does not publish, under a published kid', async () => {
      const published = (await idp.sign({ aud: CLIENT_ID, sub: 'x' })).split('.')[0];
      const kid = JSON.parse(Buffer.from(published, 'base64url').toString()).kid;
      expectError(
        await login({ credential: await idp.sign({ aud: CLIENT_ID, sub: sub() }, { unpublished: true, kid }) }),
        401,
        12010,
        'credential_invalid',
      );
    });
    it('a tampered payload', async () => {
      const [h, , s] = (await idp.sign({ aud: CLIENT_ID, sub: sub() })).split('.');
      const forged = Buffer.from(JSON.stringify({ iss: idp.issuer, aud: CLIENT_ID, sub: 'victim', exp: 9999999999 })).toString('base64url');
      expectError(await login({ credential: `${h}.${forged}.${s}` }), 401, 12010, 'credential_invalid');
    });
    it('alg none and HS256', async () => {
      const p = Buffer.from(JSON.stringify({ iss: idp.issuer, aud: CLIENT_ID, sub: 'x', exp: 9999999999 })).toString('base64url');
      const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
      expectError(await login({ credential: none }), 401, 12010, 'credential_invalid');
      const { SignJWT } = await import('jose');
      const hs = await new SignJWT({ aud: CLIENT_ID, sub: 'x', iss: idp.issuer })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('1h')
        .sign(randomBytes(32));
      expectError(await login({ credential: hs }), 401, 12010, 'credential_invalid');
    });
    it('no sub', async () => {
      expectError(await login({ credential: await idp.sign({ aud: CLIENT_ID }) }), 401, 12010, 'credential_invalid');
    });
    it('not a JWT at all', async () => {
      expectError(await login({ credential: 'garbage' }), 401, 12010, 'credential_invalid');
    });
    it('a missing credential field is a 400', async () => {
      expectError(await login({ token: 'x' }), 400, 10002, 'validation_failed');
    });
    it('a tenant without providerAClientId: 503 provider_not_configured', async () => {
      const bare = await t.givenTenant();
      expectError(
        await login({ credential: await idp.sign({ aud: CLIENT_ID, sub: sub() }) }, bare.id),
        503,
        12012,
        'provider_not_configured',
      );
    });
    it('an unreachable key set: 503 jwks_unavailable', async () => {
      await idp.rotate(true);
      idp.setBroken(true);
      try {
        expectError(await login({ credential: await idp.sign({ aud: CLIENT_ID, sub: sub() }) }), 503, 12013, 'jwks_unavailable');
      } finally {
        idp.setBroken(false);
      }
    });
  });
});

describe('providerA credential login without configuration', () => {
  const t = useTestApp();

  it('answers 503 provider_not_configured', async () => {
    const tenant = await t.givenTenant();
    await t.app.get(TenantsService).updateSettings(tenant.id, { providerAClientId: CLIENT_ID });
    const res = await t.http().post('/v1/user/auth/providerA/login').set('X-Tenant-Id', tenant.id).send({ credential: 'a.b.c' });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 12012, error: 'provider_not_configured' });
  });
});
