import { randomBytes } from 'node:crypto';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { loginToken } from '../helpers/auth.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const LIMITS = { LOGIN_RATE_LIMIT_IP: '8', LOGIN_RATE_LIMIT_ACCOUNT: '3', LOGIN_RATE_WINDOW_SECONDS: '60' };

describe('login rate limits (per IP and per account)', () => {
  let t: TestApp;
  let tenant: TenantCredentials;

  beforeAll(async () => {
    t = await createTestApp(LIMITS);
    tenant = await t.givenTenant();
  });
  afterAll(() => t.close());
  // every test starts in a fresh window: move the clock past the previous one
  beforeEach(() => t.clock.advance(61_000));

  const post = (path: string, body: object) => t.http().post(path).set('X-Tenant-Id', tenant.id).send(body);
  const passwordLogin = (username: string, password = 'wrong-password') => post('/v1/user/auth/password/login', { username, password });

  it('blocks an account after 3 attempts from anywhere, with 429 {code, message} and Retry-After', async () => {
    const username = `victim_${randomBytes(3).toString('hex')}`;
    await post('/v1/user/register/password', { username, password: 'right-password' }).expect(201);
    for (let i = 0; i < 2; i++) expect((await passwordLogin(username)).status).toBe(401);
    const blocked = await passwordLogin(username, 'right-password');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 10029, error: 'too_many_requests' });
    expect(blocked.body.detail).toMatch(/account/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // case does not make another account
    expect((await passwordLogin(username.toUpperCase())).status).toBe(429);
    // another account from the same IP is still fine
    expect((await passwordLogin('someone_else')).status).toBe(401);
    // the window passes
    t.clock.advance(61_000);
    expect((await passwordLogin(username, 'right-password')).status).toBe(200);
  });

  it('blocks an IP after 8 login or registration requests, whatever the account', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await passwordLogin(`spray_${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
    const other = await post('/v1/user/register/password', { username: `fresh_${randomBytes(3).toString('hex')}`, password: 'password-123' });
    expect(other.status).toBe(429);
    expect(other.body).toMatchObject({ code: 10029, error: 'too_many_requests' });
    const token = await post('/v1/user/auth/providerB/login', { token: 'x' });
    expect(token.status).toBe(429);
  });

  it('counts token logins per provider subject once the token names it', async () => {
    const subjectId = `busy-${randomBytes(3).toString('hex')}`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post('/v1/user/auth/providerB/login', { token: await loginToken(t, tenant.sharedSecret, { subjectId }) })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('does not limit the refresh of a session', async () => {
    const reg = await post('/v1/user/register/password', { username: `refresher_${randomBytes(3).toString('hex')}`, password: 'password-123' });
    for (let i = 0; i < 12; i++) expect((await post('/v1/user/auth/refresh-session', { refreshToken: reg.body.refreshToken })).status).toBe(200);
  });
});

// The same limits across instances sharing Redis: test/reliability/instances-redis.redis-spec.ts
// (npm run test:reliability, which provides Redis or fails).
