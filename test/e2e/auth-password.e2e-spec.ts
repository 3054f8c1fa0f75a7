import { SignJWT } from 'jose';
import { useTestApp } from '../helpers/test-app.js';
import { givenUser } from '../helpers/factories.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

describe('password registration, login and sessions', () => {
  const t = useTestApp({}, { resetClock: true });
  let tenant: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
  });

  const post = (path: string, body: unknown) =>
    t
      .http()
      .post(path)
      .set('X-Tenant-Id', tenant.id)
      .send(body as object);

  it('registers, logs in, uses the session and refreshes it', async () => {
    const reg = await post('/v1/user/register/password', { username: 'Grace_Hopper', password: 'cobol-forever-1959' });
    expect(reg.status).toBe(201);
    expect(Object.keys(reg.body).sort()).toEqual(['refreshToken', 'sessionToken', 'userId']);

    const login = await post('/v1/user/auth/password/login', { username: 'grace_hopper', password: 'cobol-forever-1959' });
    expect(login.status).toBe(200);
    expect(login.body.userId).toBe(reg.body.userId);

    const refreshed = await post('/v1/user/auth/refresh-session', { refreshToken: login.body.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(Object.keys(refreshed.body)).toEqual(['sessionToken']);
    expect(refreshed.body.sessionToken).not.toEqual('');
  });

  it('refuses a duplicate username with 409, case-insensitively', async () => {
    await post('/v1/user/register/password', { username: 'dup_user', password: 'password-one' }).expect(201);
    const res = await post('/v1/user/register/password', { username: 'DUP_USER', password: 'password-two' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 11001, error: 'username_taken' });
  });

  it('gives the same 401 for an unknown username and a wrong password', async () => {
    const u = await givenUser(t, tenant);
    const wrongPassword = await post('/v1/user/auth/password/login', { username: u.username, password: 'not-the-password' });
    const unknownUser = await post('/v1/user/auth/password/login', { username: 'nobody_here', password: 'not-the-password' });
    for (const res of [wrongPassword, unknownUser]) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        code: 12050,
        message: 'GENERIC_UNAUTHORIZED',
        error: 'invalid_credentials',
        detail: 'Invalid username or password',
      });
    }
  });

  describe('bad bodies give 400 {code: 10002}', () => {
    const cases: [string, unknown][] = [
      ['a missing field', { username: 'someone' }],
      ['a wrong type', { username: 42, password: 'password-123' }],
      ['an unknown field', { username: 'someone', password: 'password-123', isAdmin: true }],
      ['a too short username', { username: 'ab', password: 'password-123' }],
      ['a username with forbidden characters', { username: 'bad name!', password: 'password-123' }],
      ['an oversized password', { username: 'someone', password: 'x'.repeat(129) }],
      ['an array instead of an object', [1, 2]],
    ];
    it.each(cases)('%s', async (_name, body) => {
      const res = await post('/v1/user/register/password', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 10002, message: 'generic_client_error', error: 'validation_failed' });
      expect(typeof res.body.detail).toBe('string');
      expect(res.body.detail).not.toBe('');
    });

    it('malformed JSON', async () => {
      const res = await t
        .http()
        .post('/v1/user/auth/password/login')
        .set('X-Tenant-Id', tenant.id)
        .set('Content-Type', 'application/json')
        .send('{"username": "a",');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        expect.objectContaining({
          code: 10002,
          message: 'generic_client_error',
          error: 'invalid_json',
          detail: 'The request body is not valid JSON',
        }),
      );
    });

    it('a body over the size limit is 413 in the same shape', async () => {
      const res = await post('/v1/user/auth/password/login', { username: 'a', password: 'x'.repeat(200_000) });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ code: 10013, error: 'payload_too_large' });
    });
  });

  describe('401 identifiers', () => {
    it('GENERIC_UNAUTHORIZED without a token, and for an unknown refresh token', async () => {
      const noToken = await t.http().get('/v1/user/auth/session');
      expect(noToken.status).toBe(401);
      expect(noToken.body).toMatchObject({
        code: 10411,
        message: 'GENERIC_UNAUTHORIZED',
        error: 'session_token_missing',
        detail: 'Missing bearer session token',
      });
      const res = await t.http().post('/v1/user/auth/refresh-session').set('X-Tenant-Id', tenant.id).send({ refreshToken: 'rt_unknown' });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 12051, message: 'GENERIC_UNAUTHORIZED', error: 'refresh_token_invalid' });
    });

    it('a valid session token reaches an authenticated route', async () => {
      const u = await givenUser(t, tenant);
      const res = await t.http().get('/v1/user/auth/session').set('Authorization', u.auth);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ userId: u.userId, tenantId: tenant.id });
    });

    it('SESSION_TOKEN_EXPIRED for a session token older than 10 minutes', async () => {
      t.clock.advance(-11 * 60 * 1000); // issued 11 minutes ago
      const u = await givenUser(t, tenant);
      t.clock.reset();
      const res = await t.http().get('/v1/user/auth/session').set('Authorization', u.auth);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 10402, message: 'SESSION_TOKEN_EXPIRED', error: 'SESSION_TOKEN_EXPIRED' });
    });

    it('SESSION_TOKEN_EXPIRED once a token that was accepted (and is kept as verified) expires', async () => {
      t.clock.advance(-10 * 60 * 1000 + 1500); // its 10 minutes end 1.5 s from now
      const u = await givenUser(t, tenant);
      t.clock.reset();
      expect((await t.http().get('/v1/user/auth/session').set('Authorization', u.auth)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 2000));
      const res = await t.http().get('/v1/user/auth/session').set('Authorization', u.auth);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ message: 'SESSION_TOKEN_EXPIRED', error: 'SESSION_TOKEN_EXPIRED' });
    });

    it('GENERIC_UNAUTHORIZED for a tampered session token', async () => {
      const u = await givenUser(t, tenant);
      const [h, p, s] = u.sessionToken.split('.');
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
      const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: '00000000-0000-4000-8000-000000000000' })).toString('base64url');
      for (const token of [`${h}.${forgedPayload}.${s}`, `${h}.${p}.${s.slice(0, -4)}AAAA`, 'not-a-jwt']) {
        const res = await t.http().get('/v1/user/auth/session').set('Authorization', `Bearer ${token}`);
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ code: 10412, message: 'GENERIC_UNAUTHORIZED', error: 'session_token_invalid' });
      }
    });

    it('GENERIC_UNAUTHORIZED for a token signed with another key or alg none', async () => {
      const other = await new SignJWT({ tid: tenant.id })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('x')
        .setIssuer('community-gaming-service')
        .setAudience('cgs:session')
        .setExpirationTime('5m')
        .sign(new Uint8Array(32));
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'x', tid: tenant.id, exp: 9999999999 })).toString('base64url')}.`;
      for (const token of [other, none]) {
        const res = await t.http().get('/v1/user/auth/session').set('Authorization', `Bearer ${token}`);
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ message: 'GENERIC_UNAUTHORIZED', error: 'session_token_invalid' });
      }
    });

    it('REFRESH_TOKEN_EXPIRED after 30 days, GENERIC_UNAUTHORIZED once revoked', async () => {
      const u = await givenUser(t, tenant);
      t.clock.advance(30 * 24 * 3600 * 1000 - 60_000);
      await post('/v1/user/auth/refresh-session', { refreshToken: u.refreshToken }).expect(200);
      t.clock.advance(120_000);
      const expired = await post('/v1/user/auth/refresh-session', { refreshToken: u.refreshToken });
      expect(expired.status).toBe(401);
      expect(expired.body).toMatchObject({ code: 10403, message: 'REFRESH_TOKEN_EXPIRED', error: 'REFRESH_TOKEN_EXPIRED' });
    });

    it('a logged-out refresh token is refused', async () => {
      const u = await givenUser(t, tenant);
      await t.http().post('/v1/user/auth/logout').set('Authorization', u.auth).send({ refreshToken: u.refreshToken }).expect(204);
      const res = await post('/v1/user/auth/refresh-session', { refreshToken: u.refreshToken });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ message: 'GENERIC_UNAUTHORIZED', error: 'refresh_token_invalid' });
    });
  });

  describe('tenants', () => {
    it('a session of one tenant is refused in another', async () => {
      const other = await t.givenTenant();
      const u = await givenUser(t, tenant);
      const res = await t.http().get('/v1/user/auth/session').set('Authorization', u.auth).set('X-Tenant-Id', other.id);
      expect(res.status).toBe(401);
      const login = await t
        .http()
        .post('/v1/user/auth/password/login')
        .set('X-Tenant-Id', other.slug)
        .send({ username: u.username, password: u.password });
      expect(login.status).toBe(401);
      const refresh = await t
        .http()
        .post('/v1/user/auth/refresh-session')
        .set('X-Tenant-Id', other.id)
        .send({ refreshToken: u.refreshToken });
      expect(refresh.status).toBe(401);
    });

    it('an unknown tenant is a 400, a missing one with several tenants is a 400', async () => {
      await t.givenTenant();
      const unknown = await t
        .http()
        .post('/v1/user/auth/password/login')
        .set('X-Tenant-Id', 'no-such-tenant')
        .send({ username: 'a', password: 'b' });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ code: 10002, error: 'unknown_tenant' });
      const missing = await t.http().post('/v1/user/auth/password/login').send({ username: 'a', password: 'b' });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ code: 10002, error: 'tenant_required' });
    });
  });
});
