import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenCommunity, givenResourceType, type TestCommunity } from '../helpers/communities.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { givenItem, givenPrize } from '../helpers/store.js';
import { useTestApp } from '../helpers/test-app.js';

/**
 * Every boolean query parameter takes the same spellings (`true`/`false` in any case, `1`/`0`),
 * whether the interface types it as a boolean or as a string; anything else is a 400.
 * (Before: `enrichRequirements=1` worked while `ownedOnly=TRUE` was a 400.)
 */
describe('boolean query parameters: one spelling everywhere', () => {
  const t = useTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false', MINT_WORKER_ENABLED: 'false' });
  let tenant: TenantCredentials;
  let community: TestCommunity;
  let user: TestUser;
  let ownedPrize: string;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    community = await givenCommunity(t, tenant);
    await givenResourceType(t, tenant, community.id, { slug: 'xp' });
    user = await givenUser(t, tenant);
    const admin = adminApi(t, tenant);
    const item = await givenItem(t, tenant, community.id);
    await givenItem(t, tenant, community.id);
    expect((await admin.post('/v1/admin/inventory/grants', { userId: user.userId, itemId: item.id, reason: 'test' })).status).toBe(201);
    ownedPrize = (await givenPrize(t, tenant)).id;
    await givenPrize(t, tenant);
    expect(
      (await admin.post(`/v1/admin/prizes/${ownedPrize}/awards`, { userId: user.userId, reason: 'test', idempotencyKey: 'k-owned' }))
        .status,
    ).toBe(201);
    expect(
      (
        await admin.post('/v1/admin/quests', {
          communityId: community.id,
          name: 'Featured',
          type: 'social',
          tags: ['daily'],
          featured: true,
        })
      ).status,
    ).toBe(201);
    expect(
      (await admin.post('/v1/admin/quests', { communityId: community.id, name: 'Plain', type: 'social', tags: ['daily'] })).status,
    ).toBe(201);
  });

  const get = (path: string) => t.http().get(path).set('Authorization', user.auth);
  const TRUE = ['true', 'TRUE', 'True', '1'];
  const FALSE = ['false', 'FALSE', 'False', '0'];
  const BAD = ['yes', 'maybe', '2', 'truee'];

  it.each([
    [
      'ownedOnly (prizes; a string in the interface)',
      (v: string) => `/v1/inventory/prizes?ownedOnly=${v}`,
      (b: { total: number }) => b.total,
      1,
      2,
    ],
    [
      'onlyOwned (inventory items; a string in the interface)',
      (v: string) => `/v1/community/${community.slug}/inventory/items?onlyOwned=${v}&userId=${user.userId}`,
      (b: { total: number }) => b.total,
      1,
      2,
    ],
    [
      'featured (quests; a string in the interface)',
      (v: string) => `/v1/community/${community.slug}/quests?tags=&questTypes=&featured=${v}&query=&page=1&limit=20`,
      (b: { items: { name: string }[] }) => b.items.map((q) => q.name).join(),
      'Featured',
      'Plain',
    ],
    [
      'enrichRequirements (store listings; a boolean)',
      (v: string) => `/v1/store/listings?containerId=${community.slug}&enrichRequirements=${v}`,
      (b: { total: number }) => b.total,
      0,
      0,
    ],
    [
      'participating (quest events; a boolean)',
      (v: string) => `/v1/quest-event?participating=${v}`,
      (b: { total: number }) => b.total,
      0,
      0,
    ],
    [
      'excludeTemplateTags (quest tags; a boolean)',
      (v: string) =>
        `/v1/community/${community.slug}/quests/tags?excludeTemplateTags=${v}&userAvailableQuests=false&includeRewards=&userId=`,
      (b: unknown[]) => b.length,
      1,
      1,
    ],
  ])('%s: true/TRUE/True/1 and false/FALSE/False/0 mean the same; other values are 400', async (_name, path, read, whenTrue, whenFalse) => {
    for (const v of TRUE) {
      const res = await get(path(v));
      expect({ v, status: res.status, read: res.status === 200 ? read(res.body) : res.body }).toEqual({ v, status: 200, read: whenTrue });
    }
    for (const v of FALSE) {
      const res = await get(path(v));
      expect({ v, status: res.status, read: res.status === 200 ? read(res.body) : res.body }).toEqual({ v, status: 200, read: whenFalse });
    }
    for (const v of BAD) {
      const res = await get(path(v));
      expect({ v, status: res.status, message: res.body.message }).toEqual({ v, status: 400, message: 'generic_client_error' });
    }
  });

  it('keeps the empty value where the interface gives it a meaning (featured=, includeRewards=): no filter', async () => {
    const all = await get(`/v1/community/${community.slug}/quests?tags=&questTypes=&featured=&query=&page=1&limit=20`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2);
    const tags = await get(
      `/v1/community/${community.slug}/quests/tags?excludeTemplateTags=0&userAvailableQuests=FALSE&includeRewards=TRUE&userId=`,
    );
    expect(tags.status).toBe(200);
    expect(tags.body[0]).toHaveProperty('rewards');
  });
});
