import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenCommunity, givenResourceType, grant } from '../helpers/communities.js';
import { givenUser } from '../helpers/factories.js';
import { givenPlayableQuest, play } from '../helpers/quest-play.js';
import { givenListing, purchase } from '../helpers/store.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

/**
 * The console's overview (`GET /v1/admin/overview`): the tenant's activity since an instant,
 * counted from each module's rows, none of another tenant's; `since` bounded and validated.
 */
describe('the overview of the management API', () => {
  const t = useTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false', MINT_WORKER_ENABLED: 'false' });
  let tenant: TenantCredentials;
  let other: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    other = await t.givenTenant();
  });

  const overview = (who: TenantCredentials, query = '') => adminApi(t, who).get(`/v1/admin/overview${query}`);

  it("counts the tenant's sessions, new players, grants, purchases, completions and pending reviews, and nothing of another tenant", async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const empty = await overview(tenant, `?since=${before}`).expect(200);
    expect(empty.body).toEqual({
      since: before,
      logins: 0,
      newPlayers: 0,
      grants: 0,
      purchases: 0,
      questCompletions: 0,
      pendingReviews: 0,
    });

    const c = await givenCommunity(t, tenant);
    const gems = await givenResourceType(t, tenant, c.id, { slug: 'gems' });
    const coins = await givenResourceType(t, tenant, c.id, { slug: 'coins' });
    const alice = await givenUser(t, tenant);
    const bob = await givenUser(t, tenant);
    await t
      .http()
      .post('/v1/user/auth/password/login')
      .set('X-Tenant-Id', tenant.id)
      .send({ username: alice.username, password: alice.password })
      .expect(200);
    expect((await grant(t, tenant, alice.userId, gems.id, 30)).status).toBe(201);
    expect((await grant(t, tenant, bob.userId, gems.id, 5)).status).toBe(201);
    const listing = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'resource',
      resourceTypeId: coins.id,
      quantity: 1,
      price: [{ resourceTypeId: gems.id, amount: 10 }],
    });
    await purchase(t, alice, listing.id as string).expect(201);
    const answered = await givenPlayableQuest(t, tenant, c, {}, [{ kind: 'answer', answer: { answers: ['42'] } }]);
    expect((await play(t, alice, answered.id).answer(answered.tasks[0].id, '42')).status).toBe(200);
    expect((await play(t, alice, answered.id).claim()).status).toBe(200);
    const reviewed = await givenPlayableQuest(t, tenant, c, {}, [
      { kind: 'submission', submission: { format: 'url', instructions: 'Link it' } },
    ]);
    expect((await play(t, bob, reviewed.id).submit(reviewed.tasks[0].id, 'https://x.com/p/1')).status).toBe(200);

    // The audit log (which the grants are counted from) is written just after each answer.
    await until(
      async () => (await overview(tenant, `?since=${before}`)).body.grants as number,
      (grants) => grants === 2,
    );
    const seen = await overview(tenant, `?since=${before}`).expect(200);
    // Sessions: two registrations and a login. Grants: the two above (a purchase's credit and a
    // quest's reward are not grants).
    expect(seen.body).toEqual({ since: before, logins: 3, newPlayers: 2, grants: 2, purchases: 1, questCompletions: 1, pendingReviews: 1 });
    expect((await overview(other, `?since=${before}`).expect(200)).body).toMatchObject({
      logins: 0,
      newPlayers: 0,
      grants: 0,
      purchases: 0,
      pendingReviews: 0,
    });
    // Without `since`: the last 24 hours.
    const day = await overview(tenant).expect(200);
    expect(Date.now() - new Date(day.body.since as string).getTime()).toBeGreaterThanOrEqual(24 * 3600 * 1000 - 5000);
    expect(day.body.logins).toBe(3);
  });

  it('refuses a `since` that is not an instant, in the future or more than 31 days back, in the error body', async () => {
    for (const since of [
      'yesterday',
      new Date(Date.now() + 3600_000).toISOString(),
      new Date(Date.now() - 32 * 24 * 3600_000).toISOString(),
    ]) {
      const r = await overview(tenant, `?since=${encodeURIComponent(since)}`);
      expect({ since, status: r.status, message: r.body.message, error: r.body.error }).toEqual({
        since,
        status: 400,
        message: 'generic_client_error',
        error: 'validation_failed',
      });
    }
    expect((await t.http().get('/v1/admin/overview').set('X-Tenant-Id', tenant.id)).status).toBe(401);
  });
});
