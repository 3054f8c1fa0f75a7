import { readFileSync } from 'node:fs';
import { useTestApp } from '../helpers/test-app.js';
import { givenUser } from '../helpers/factories.js';
import { givenCommunity, givenResourceType, grant } from '../helpers/communities.js';
import { givenListing, purchase } from '../helpers/store.js';
import { METRICS_TOKEN, Scrape } from '../helpers/metrics.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

/** The 404 of a path that does not exist: `/metrics` must look exactly like one unless the token is right. */
const expectUnknownPath = (res: { status: number; headers: Record<string, string>; body: Record<string, unknown> }) => {
  expect(res.status).toBe(404);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({
    code: 10004,
    message: 'not_found',
    error: 'not_found',
    detail: 'No route GET /metrics',
    requestId: expect.any(String),
  });
};

describe('GET /metrics without METRICS_TOKEN', () => {
  const t = useTestApp();

  it('is an unknown path, whatever the request sends', async () => {
    expectUnknownPath(await t.http().get('/metrics'));
    expectUnknownPath(await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`));
    expectUnknownPath(await t.http().get('/metrics').set('Authorization', 'Bearer '));
  });

  it('is neither under /v1 nor in the published document', async () => {
    expect((await t.http().get('/v1/metrics')).status).toBe(404);
    const doc = JSON.parse(readFileSync('openapi.json', 'utf8')) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.includes('metrics'))).toEqual([]);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const t = useTestApp({ METRICS_TOKEN });
  let tenant: TenantCredentials;
  const scrape = async () => {
    const res = await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(res.status).toBe(200);
    return new Scrape(res.text);
  };

  beforeAll(async () => {
    tenant = await t.givenTenant();
  });

  it('answers 404 to a missing, wrong or malformed bearer token', async () => {
    expectUnknownPath(await t.http().get('/metrics'));
    expectUnknownPath(
      await t
        .http()
        .get('/metrics')
        .set('Authorization', `Bearer ${METRICS_TOKEN.slice(1)}x`),
    );
    expectUnknownPath(await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}x`));
    expectUnknownPath(await t.http().get('/metrics').set('Authorization', `Basic ${METRICS_TOKEN}`));
    expectUnknownPath(await t.http().get('/metrics').set('Authorization', METRICS_TOKEN));
    expectUnknownPath(await t.http().get('/metrics?token=' + METRICS_TOKEN));
  });

  it('answers the Prometheus text format to the right one: runtime, pool and domain families', async () => {
    const res = await t.http().get('/metrics').set('Authorization', `bearer ${METRICS_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const names = new Scrape(res.text).seriesNames();
    for (const name of [
      'http_request_duration_seconds_count',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'process_resident_memory_bytes',
      'db_pool_connections',
      'db_pool_waiting_requests',
      'db_pool_max_connections',
      'cgs_logins_total',
      'cgs_purchases_total',
      'cgs_resources_credited_total',
      'cgs_mint_jobs_total',
    ])
      expect({ name, exported: names.has(name) }).toEqual({ name, exported: true });
    const pool = new Scrape(res.text);
    expect(pool.value('db_pool_max_connections')).toBe(t.config.DB_POOL_SIZE);
    expect(pool.value('db_pool_connections', { state: 'idle' }) + pool.value('db_pool_connections', { state: 'in_use' })).toBeGreaterThan(
      0,
    );
  });

  it('counts requests by route template and status, never by raw URL', async () => {
    const community = await givenCommunity(t, tenant);
    const route = { method: 'GET', route: '/v1/community/:communityId' };
    const before = await scrape();
    for (let i = 0; i < 3; i++) await t.http().get(`/v1/community/${community.id}`).set('X-Tenant-Id', tenant.id).expect(200);
    await t.http().get('/v1/community/00000000-0000-4000-8000-000000000000').set('X-Tenant-Id', tenant.id).expect(404);
    await t.http().get(`/v1/no-such-thing/${community.id}`).expect(404);
    await t.http().get('/another/unknown/path').expect(404);
    const after = await scrape();

    const delta = (labels: Record<string, string>) =>
      after.count('http_request_duration_seconds', labels) - before.count('http_request_duration_seconds', labels);
    expect(delta({ ...route, status_code: '200' })).toBe(3);
    expect(delta({ ...route, status_code: '404' })).toBe(1);
    // An unknown path, under /v1 (Nest's catch-all route) or not (no route at all): one label.
    expect(delta({ route: 'unmatched', status_code: '404' })).toBe(2);
    expect(after.text).not.toContain('*path');
    // No label value carries an id or a path that was not a route template.
    expect(after.text).not.toContain(community.id);
    expect(after.text).not.toContain('/another/unknown/path');
  });

  it('counts logins by method and result', async () => {
    const user = await givenUser(t, tenant);
    const before = await scrape();
    const login = (password: string) =>
      t.http().post('/v1/user/auth/password/login').set('X-Tenant-Id', tenant.id).send({ username: user.username, password });
    await login(user.password).expect(200);
    await login('not the password').expect(401);
    await login('not the password either').expect(401);
    const after = await scrape();
    const delta = (labels: Record<string, string>) => after.value('cgs_logins_total', labels) - before.value('cgs_logins_total', labels);
    expect(delta({ method: 'password', result: 'success' })).toBe(1);
    expect(delta({ method: 'password', result: 'invalid_credentials' })).toBe(2);
    // The registration of givenUser was counted as one too.
    expect(after.value('cgs_logins_total', { method: 'register_password', result: 'success' })).toBeGreaterThanOrEqual(1);
  });

  it('counts purchases by result and the amounts credited by kind and reason, once committed', async () => {
    const c = await givenCommunity(t, tenant);
    const xp = await givenResourceType(t, tenant, c.id, { slug: 'xp' });
    const points = await givenResourceType(t, tenant, c.id, { slug: 'points' });
    const listing = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'resource',
      resourceTypeId: points.id,
      quantity: 5,
      price: [{ resourceTypeId: xp.id, amount: 10 }],
    });
    const user = await givenUser(t, tenant);
    const before = await scrape();
    expect((await grant(t, tenant, user.userId, xp.id, 15)).status).toBe(201);
    await purchase(t, user, listing.id, { nonce: 'metrics-1' }).expect(201);
    await purchase(t, user, listing.id, { nonce: 'metrics-1' }).expect(201); // the same nonce: a replay
    await purchase(t, user, listing.id).expect(409); // 5 XP left, the price is 10
    const after = await scrape();

    const purchases = (result: string) => after.value('cgs_purchases_total', { result }) - before.value('cgs_purchases_total', { result });
    expect([purchases('success'), purchases('replayed'), purchases('insufficient_balance')]).toEqual([1, 1, 1]);
    const credited = (labels: Record<string, string>) =>
      after.value('cgs_resources_credited_total', labels) - before.value('cgs_resources_credited_total', labels);
    // The grant's reason is the operator's own ("test"): one label for all of those.
    expect(credited({ kind: 'global', reason: 'other' })).toBe(15);
    // The purchase credited 5 points once: not for the replay, not for the refused one (rolled back).
    expect(credited({ kind: 'global', reason: 'store_purchase' })).toBe(5);
  });
});
