import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenCommunity, givenResourceType, grant, type TestCommunity } from '../helpers/communities.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

/**
 * Numbers and dates in a query string: an integer is decimal digits, a date an ISO 8601 date;
 * anything else is a 400 `validation_failed`, never read another way (`0x10` as 16, `1e1` as 10,
 * `1.5` as a date) and never a 500. A deepObject (`page[a]=1`) is an object where a number is
 * expected: qs builds it without a prototype, which `Number` and `new Date` cannot even convert.
 */
describe('numbers and dates in a query', () => {
  const t = useTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false', MINT_WORKER_ENABLED: 'false' });
  let tenant: TenantCredentials;
  let c: TestCommunity;
  let xp: { id: string; slug: string };
  let user: TestUser;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    c = await givenCommunity(t, tenant);
    xp = await givenResourceType(t, tenant, c.id);
    user = await givenUser(t, tenant);
    expect((await grant(t, tenant, user.userId, xp.id, 10)).status).toBe(201);
  });

  const board = (query: string) => t.http().get(`/v1/community/${c.id}/leaderboard/${xp.slug}?${query}`).set('X-Tenant-Id', tenant.id);
  const ranking = (query: string) => t.http().get(`/v1/community/${c.id}/ranking/${xp.slug}?${query}`).set('Authorization', user.auth);
  const auditLog = (query: string) => adminApi(t, tenant).get(`/v1/admin/audit-log?${query}`);
  const earned = (query: string) =>
    adminApi(t, tenant).get(`/v1/admin/resources/earned-per-day?communityId=${c.id}&resourceType=${xp.slug}&${query}`);

  const refused = (fields: string[]) => ({
    message: 'generic_client_error',
    error: 'validation_failed',
    details: { fields: expect.arrayContaining(fields) as unknown },
  });

  it.each([
    ['page[a]=1', 'page'],
    ['limit[a]=5', 'limit'],
    ['page=0x10', 'page'],
    ['limit=1e1', 'limit'],
    ['limit=%205', 'limit'],
    ['limit=5.0', 'limit'],
    ['page=', 'page'],
  ])('refuses %s on a leaderboard with 400', async (query, field) => {
    const res = await board(query);
    expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 400, body: expect.objectContaining(refused([field])) });
  });

  it('refuses an object or a number in another form for the other integers (neighbours, days) with 400', async () => {
    for (const query of ['neighbours[a]=1', 'neighbours=0x2', 'neighbours=2e0'])
      expect((await ranking(query)).body).toMatchObject(refused(['neighbours']));
    for (const query of ['days[a]=7', 'days=0x7']) expect((await earned(query)).body).toMatchObject(refused(['days']));
  });

  it('refuses a date that is not an ISO 8601 calendar date (an object, a number, a fraction, February 30) with 400', async () => {
    for (const query of ['from[a]=1', 'from=-1', 'from=1.5', 'from=1700000000000', 'from=2026-02-30T00:00:00Z', 'to[a]=1', 'to=soon'])
      expect((await auditLog(query)).body).toMatchObject(refused([query.startsWith('from') ? 'from' : 'to']));
  });

  it('reads the plain forms as before', async () => {
    expect((await board('page=1&limit=5')).body).toMatchObject({ page: 1, limit: 5, total: 1 });
    expect((await board('page=-0')).status).toBe(400);
    expect((await ranking('neighbours=3')).body).toMatchObject({ rank: 1, amount: 10 });
    expect((await earned('days=3')).body.days).toHaveLength(3);
    // The audit log is written after the answers, in batches: its first entry may still be on its way.
    const log = await until(
      async () => await auditLog('from=2026-01-01&to=9999-12-31T23:59:59.999Z&limit=1'),
      (r) => r.status !== 200 || r.body.items.length > 0,
    );
    expect(log.status).toBe(200);
    expect(log.body.items).toHaveLength(1);
  });
});
