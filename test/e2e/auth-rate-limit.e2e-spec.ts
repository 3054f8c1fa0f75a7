import { TenantsService, type TenantCredentials } from '../../src/tenants/tenants.service.js';
import { loginToken } from '../helpers/auth.js';
import { useTestApp } from '../helpers/test-app.js';
import { uniqueName, uniqueHandle } from '../factories/unique-name.js';

const LIMITS = { LOGIN_RATE_LIMIT_IP: '8', LOGIN_RATE_LIMIT_ACCOUNT: '3', LOGIN_RATE_WINDOW_SECONDS: '60' };
const tooMany = { code: 10029, error: 'too_many_requests' };
const name = (prefix: string) => uniqueHandle(prefix);

describe('login rate limits (per address and per account and address)', () => {
  const t = useTestApp(LIMITS);
  let tenant: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
  });
  // every test starts in a fresh window: move the clock past the previous one
  beforeEach(() => t.clock.advance(61_000));

  const post = (path: string, body: object, headers: Record<string, string> = {}) =>
    t.http().post(path).set('X-Tenant-Id', tenant.id).set(headers).send(body);
  const passwordLogin = (username: string, password = 'wrong-password', headers: Record<string, string> = {}) =>
    post('/v1/user/auth/password/login', { username, password }, headers);

  it('blocks an account after 3 failed attempts from one address, with 429 {code, message} and Retry-After', async () => {
    const username = name('victim');
    await post('/v1/user/register/password', { username, password: 'right-password' }).expect(201);
    for (let i = 0; i < 3; i++) expect((await passwordLogin(username)).status).toBe(401);
    const blocked = await passwordLogin(username, 'right-password');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject(tooMany);
    expect(blocked.body.detail).toMatch(/account/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // case does not make another account
    expect((await passwordLogin(username.toUpperCase())).status).toBe(429);
    // another account from the same address is still fine
    expect((await passwordLogin('someone_else')).status).toBe(401);
    // the window passes
    t.clock.advance(61_000);
    expect((await passwordLogin(username, 'right-password')).status).toBe(200);
  });

  it('counts failures only: logins with the right password, however many, never block the account', async () => {
    const username = name('regular');
    await post('/v1/user/register/password', { username, password: 'right-password' }).expect(201);
    const statuses: number[] = [];
    // more than the 3 attempts allowed per account and address (the address allows 8 requests in all)
    for (let i = 0; i < 4; i++) statuses.push((await passwordLogin(username, 'right-password')).status);
    // two typos after all of those still leave a third try
    statuses.push((await passwordLogin(username)).status, (await passwordLogin(username)).status);
    statuses.push((await passwordLogin(username, 'right-password')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 401, 401, 200]);
  });

  it('blocks an address after 8 login or registration requests, whatever the account', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await passwordLogin(`spray_${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
    const other = await post('/v1/user/register/password', { username: name('fresh'), password: 'password-123' });
    expect(other.status).toBe(429);
    expect(other.body).toMatchObject(tooMany);
    const token = await post('/v1/user/auth/providerB/login', { token: 'x' });
    expect(token.status).toBe(429);
  });

  it('does not trust X-Forwarded-For without TRUST_PROXY: a client rotating it from loopback is limited', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++)
      statuses.push((await passwordLogin(`rotate_${i}`, 'wrong-password', { 'X-Forwarded-For': `203.0.113.${i + 1}` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
  });

  it('counts failed token logins per provider subject once the token names it (a replayed token), with Retry-After', async () => {
    const subjectId = uniqueName('busy');
    const statuses: number[] = [];
    // logins with fresh tokens do not count
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await post('/v1/user/auth/providerB/login', { token: await loginToken(t, tenant.sharedSecret, { subjectId }) })).status,
      );
    const replayed = await loginToken(t, tenant.sharedSecret, { subjectId });
    statuses.push((await post('/v1/user/auth/providerB/login', { token: replayed })).status);
    for (let i = 0; i < 3; i++) statuses.push((await post('/v1/user/auth/providerB/login', { token: replayed })).status);
    const fresh = await post('/v1/user/auth/providerB/login', { token: await loginToken(t, tenant.sharedSecret, { subjectId }) });
    expect([...statuses, fresh.status]).toEqual([200, 200, 200, 200, 200, 401, 401, 401, 429]);
    expect(Number(fresh.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('does not limit the refresh of a session', async () => {
    const reg = await post('/v1/user/register/password', { username: name('refresher'), password: 'password-123' });
    for (let i = 0; i < 12; i++)
      expect((await post('/v1/user/auth/refresh-session', { refreshToken: reg.body.refreshToken })).status).toBe(200);
  });
});

describe('login rate limits behind a proxy (TRUST_PROXY): guessing from many addresses', () => {
  // per address 1000, per account and address 3, per account from all addresses 10
  const env = {
    TRUST_PROXY: 'loopback',
    LOGIN_RATE_LIMIT_IP: '1000',
    LOGIN_RATE_LIMIT_ACCOUNT: '3',
    LOGIN_RATE_LIMIT_ACCOUNT_TOTAL: '10',
    LOGIN_RATE_WINDOW_SECONDS: '60',
  };
  const t = useTestApp(env);
  let tenant: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
  });
  beforeEach(() => t.clock.advance(61_000));

  let n = 0;
  const address = () => `198.51.${++n >> 8}.${n & 255}`;
  const post = (path: string, body: object, from: string, tenantId = tenant.id) =>
    t.http().post(path).set('X-Tenant-Id', tenantId).set('X-Forwarded-For', from).send(body);
  const attempt = (username: string, password: string, from: string, tenantId = tenant.id) =>
    post('/v1/user/auth/password/login', { username, password }, from, tenantId);
  const register = async (from: string, tenantId = tenant.id) => {
    const username = name('owner');
    await post('/v1/user/register/password', { username, password: 'owner-password' }, from, tenantId).expect(201);
    return username;
  };

  it('counts the forwarded address: clients rotating through the proxy are counted apart', async () => {
    const one = address();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await attempt('nobody_rotating', 'wrong-password', address())).status);
    for (let i = 0; i < 4; i++) statuses.push((await attempt('nobody_fixed', 'wrong-password', one)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 429]);
  });

  it('one address guessing a password is limited; the owner from another address is not', async () => {
    const home = address();
    const username = await register(home);
    const attacker = address();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await attempt(username, `guess-${i}`, attacker)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await attempt(username, 'owner-password', home)).status).toBe(200);
  });

  it('ten and more failed passwords from as many addresses do not lock the owner out', async () => {
    const home = address();
    const username = await register(home);
    // the owner's own logins, from home, count towards nothing
    for (let i = 0; i < 3; i++) expect((await attempt(username, 'owner-password', home)).status).toBe(200);
    // 10 guesses from new addresses: the ceiling
    for (let i = 0; i < 10; i++) expect((await attempt(username, `guess-${i}`, address())).status).toBe(401);
    expect((await attempt(username, 'owner-password', home)).status).toBe(200);
    // past the ceiling, new addresses are refused ...
    const refused = [];
    for (let i = 0; i < 5; i++) refused.push(await attempt(username, i === 4 ? 'owner-password' : `guess-${i}`, address()));
    expect(refused.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
    expect(refused[4].body).toMatchObject(tooMany);
    expect(Number(refused[4].headers['retry-after'])).toBeGreaterThan(0);
    // ... the owner, from an address he logged in from before, is not, even after a typo there
    expect((await attempt(username, 'typo', home)).status).toBe(401);
    expect((await attempt(username, 'owner-password', home)).status).toBe(200);
    // and it lifts after a window
    t.clock.advance(121_000);
    expect((await attempt(username, 'owner-password', address())).status).toBe(200);
  });

  it("an owner's many logins from home and his phone's new address never trip the ceiling for him", async () => {
    const home = address();
    const username = await register(home);
    // a busy day at home: more logins than the ceiling allows attempts
    for (let i = 0; i < 12; i++) expect((await attempt(username, 'owner-password', home)).status).toBe(200);
    // a stranger's guess and then the owner from a new address (his phone on mobile data)
    expect((await attempt(username, 'guess', address())).status).toBe(401);
    expect((await attempt(username, 'owner-password', address())).status).toBe(200);
  });

  it('takes the limits of a tenant from its settings', async () => {
    const strict = await t.givenTenant();
    await t.app
      .get(TenantsService)
      .updateSettings(strict.id, { loginRateLimits: { perAddress: 5, perAccountAndAddress: 1, perAccount: 50 } });
    const from = address();
    const username = await register(address(), strict.id);
    expect((await attempt(username, 'guess-1', from, strict.id)).status).toBe(401);
    expect((await attempt(username, 'guess-2', from, strict.id)).status).toBe(429);
    const spray: number[] = [];
    for (let i = 0; i < 5; i++) spray.push((await attempt(`spray_${i}`, 'guess', from, strict.id)).status);
    // the address already made 2 requests: 3 more pass, then 429
    expect(spray).toEqual([401, 401, 401, 429, 429]);
    // the other tenant keeps the configured limits (3 per account and address)
    const other = await register(address());
    const elsewhere = address();
    expect((await attempt(other, 'guess-1', elsewhere)).status).toBe(401);
    expect((await attempt(other, 'guess-2', elsewhere)).status).toBe(401);
  });

  it('refuses invalid rate-limit settings where settings are written', async () => {
    const tenants = t.app.get(TenantsService);
    const bads: unknown[] = [{ perAccount: 0 }, { perAddress: 1.5 }, { perAccountAndAddress: '10' }, { perAcount: 10 }, [10], 'strict'];
    for (const bad of bads) {
      await expect(tenants.updateSettings(tenant.id, { loginRateLimits: bad as never })).rejects.toMatchObject({
        definition: { status: 400 },
      });
    }
    const ok = await tenants.updateSettings(tenant.id, { loginRateLimits: { perAccount: 500 } });
    expect(ok.settings.loginRateLimits).toEqual({ perAccount: 500 });
    await tenants.updateSettings(tenant.id, { loginRateLimits: null });
  });
});
