import { useTestApp } from '../helpers/test-app.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { givenCommunity, type TestCommunity } from '../helpers/communities.js';
import { TenantsService, type TenantCredentials } from '../../src/tenants/tenants.service.js';

/**
 * Issue 15: `__proto__[polluted]=1` in a query wrote onto Object.prototype and every tenant's logins
 * answered 500 until the process restarted. These close the class on every route, not the one
 * route of the report (test/e2e/platform.e2e-spec.ts keeps that one); the reliability fuzzer sends
 * these keys in every position of every operation against real processes.
 */
describe('client keys that reach a prototype', () => {
  const t = useTestApp();
  let tenant: TenantCredentials;
  let user: TestUser;
  let community: TestCommunity;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    user = await givenUser(t, tenant);
    community = await givenCommunity(t, tenant);
  });

  const polluted = () => (({}) as Record<string, unknown>).polluted;
  const expectRefused = (res: { status: number; body: { code?: number; error?: string } }, what: string) =>
    expect({ what, status: res.status, code: res.body.code, error: res.body.error }).toEqual({
      what,
      status: 400,
      code: 10002,
      error: 'unsafe_input',
    });

  it('refuses a prototype name in any segment of a query parameter name with 400 on every route, including routes that read no query', async () => {
    const names = [
      '__proto__[polluted]',
      '__proto__',
      'constructor[prototype][polluted]',
      'prototype',
      'x[__proto__]',
      '%5F%5Fproto%5F%5F%5Bpolluted%5D',
      'filter[constructor][prototype]',
      // The other members of Object.prototype, which class-transformer dropped without a word.
      'toString',
      'filter[valueOf]',
      'hasOwnProperty',
    ];
    for (const name of names) {
      expectRefused(await t.http().get(`/v1/community/${community.slug}?${name}=1`).set('X-Tenant-Id', tenant.id), `public read ?${name}`);
      expectRefused(await t.http().get(`/v1/user/profile?fields=id&${name}=1`).set('Authorization', user.auth), `profile ?${name}`);
      expectRefused(await t.http().get(`/health/ready?${name}=1`), `readiness ?${name}`);
    }
    expect(polluted()).toBeUndefined();
  });

  it('refuses a prototype key anywhere in a body with 400 before any guard or handler reads it, also where the handler takes no body', async () => {
    const members = async () =>
      Number((await t.dataSource.query('SELECT count(*) AS n FROM community_members WHERE community_id = $1', [community.id]))[0].n);
    const join = (body: string, type = 'application/json') =>
      t
        .http()
        .post(`/v1/community/${community.id}/join?referrerHandle=`)
        .set('Authorization', user.auth)
        .set('Content-Type', type)
        .send(body);
    expectRefused(await join('{"__proto__":{"polluted":1}}'), 'join with __proto__');
    expectRefused(await join('{"toString":"x"}'), 'join with toString');
    expectRefused(await join('{"a":[{"b":{"constructor":{"prototype":{"polluted":1}}}}]}'), 'join with a nested constructor.prototype');
    // A form is no body the API takes (JSON only): refused before any guard or handler too.
    expect((await join('prototype=1', 'application/x-www-form-urlencoded')).body).toMatchObject({
      code: 10015,
      error: 'unsupported_media_type',
    });
    expect(await members()).toBe(0);
    // The login guard reads the body before the validation pipe runs.
    expectRefused(
      await t
        .http()
        .post('/v1/user/auth/password/login')
        .set('X-Tenant-Id', tenant.id)
        .set('Content-Type', 'application/json')
        .send(`{"username":"${user.username}","password":"${user.password}","__proto__":{"polluted":1}}`),
      'login',
    );
    expect(polluted()).toBeUndefined();
    expect((await join('{}')).status).toBe(201);
  });

  it('answers 503 on /health/ready while Object.prototype carries a property or a replaced built-in, so that an orchestrator restarts a poisoned process', async () => {
    const ready = async () => {
      const res = await t.http().get('/health/ready');
      return { status: res.status, code: res.body.code, error: res.body.error, detail: res.body.detail };
    };
    const notReady = { status: 503, code: 10503, error: 'service_unavailable', detail: 'Not ready: prototypes down' };
    await t.http().get('/health/ready').expect(200);
    (Object.prototype as Record<string, unknown>).polluted = 1;
    try {
      expect(await ready()).toEqual(notReady);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    // An assignment keeps a built-in non-enumerable: only a comparison with the original tells it.
    const original = Object.getOwnPropertyDescriptor(Object.prototype, 'toLocaleString')!;
    Object.prototype.toLocaleString = function toLocaleString(this: object) {
      return JSON.stringify(this);
    };
    try {
      expect(await ready()).toEqual(notReady);
    } finally {
      Object.defineProperty(Object.prototype, 'toLocaleString', original);
    }
    await t.http().get('/health/ready').expect(200);
  });

  it('refuses tenant settings with a prototype key (the operator JSON of `cli tenant:settings`)', async () => {
    const tenants = t.app.get(TenantsService);
    const refused = { definition: expect.objectContaining({ status: 400, error: 'unsafe_input' }) };
    await expect(tenants.updateSettings(tenant.id, JSON.parse('{"__proto__":{"polluted":1}}'))).rejects.toMatchObject(refused);
    await expect(tenants.updateSettings(tenant.id, { siwe: { constructor: { prototype: { polluted: 1 } } } })).rejects.toMatchObject(
      refused,
    );
    await expect(tenants.create({ slug: 'proto-settings', settings: JSON.parse('{"prototype":1}') })).rejects.toMatchObject(refused);
    const [row] = await t.dataSource.query('SELECT settings::text AS s FROM tenants WHERE id = $1', [tenant.id]);
    expect(row.s).not.toMatch(/__proto__|constructor|prototype/);
    expect(polluted()).toBeUndefined();
  });
});
