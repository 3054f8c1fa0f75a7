import { useTestApp } from '../helpers/test-app.js';
import { adminApi } from '../helpers/admin-api.js';
import { givenCommunity, givenListing, givenRequirement, givenResourceType, givenUser, grant } from '../factories/e2e.js';
import { ADDRESS_SCHEMA, EMAIL_SCHEMA } from '../factories/inputs.js';
import { purchase, userGet } from '../helpers/store.js';
import { givenStoreWorld, storeWorldApi, type StoreWorld } from '../helpers/store-world.js';

// Split from the store spec by behaviour; its world (a tenant, a community, gems and coins) is test/helpers/store-world.ts.
describe('the store: balance, listings and their management', () => {
  const t = useTestApp({}, { resetClock: true });
  let tenant: StoreWorld['tenant'];
  let other: StoreWorld['other'];
  let c: StoreWorld['c'];
  let gems: StoreWorld['gems'];
  let coins: StoreWorld['coins'];
  beforeAll(async () => {
    ({ tenant, other, c, gems, coins } = await givenStoreWorld(t));
  });
  const { admin, fundedUser, balances, gemListing } = storeWorldApi(t, () => ({ tenant, other, c, gems, coins }));

  describe('balance', () => {
    it('returns the spendable amount of every resource type of the community, by id or slug', async () => {
      const u = await fundedUser(30);
      const res = await userGet(t, u, `/v1/store/balance?containerId=${c.id}`).expect(200);
      expect(res.body.communityId).toBe(c.id);
      expect(res.body.resources).toEqual([
        { resourceTypeId: coins.id, slug: 'coins', name: 'XP', kind: 'global', balance: 0 },
        { resourceTypeId: gems.id, slug: 'gems', name: 'XP', kind: 'global', balance: 30 },
      ]);
      // Spending lowers the spendable balance (not the earned total).
      const l = await gemListing();
      await purchase(t, u, l.id).expect(201);
      expect(await balances(u)).toEqual({ gems: 20, coins: 5 });
    });

    it('needs a session, a containerId, and a community of the tenant', async () => {
      const u = await givenUser(t, tenant);
      expect((await t.http().get(`/v1/store/balance?containerId=${c.id}`)).status).toBe(401);
      expect((await userGet(t, u, '/v1/store/balance')).body).toMatchObject({ code: 10002 });
      expect((await userGet(t, u, '/v1/store/balance?containerId=nope')).body).toMatchObject({ code: 20001 });
      const foreigner = await givenUser(t, other);
      expect((await userGet(t, foreigner, `/v1/store/balance?containerId=${c.id}`)).status).toBe(404);
    });
  });

  describe('listings', () => {
    it('lists what is on sale, paginated, with or without the enriched requirements', async () => {
      const community = await givenCommunity(t, tenant);
      const xp = await givenResourceType(t, tenant, community.id, { slug: 'xp' });
      const address = await givenRequirement(t, tenant, { kind: 'data', schema: ADDRESS_SCHEMA });
      const veteran = await givenRequirement(t, tenant, { kind: 'min_resource', resourceTypeId: xp.id, minAmount: 100 });
      const base = { communityId: community.slug, kind: 'resource', resourceTypeId: xp.id, price: [{ resourceTypeId: xp.id, amount: 50 }] };
      const first = await givenListing(t, tenant, {
        ...base,
        position: 1,
        requirementIds: [address.id, veteran.id],
        totalSupply: 10,
        perUserLimit: 2,
      });
      const second = await givenListing(t, tenant, { ...base, position: 2 });
      t.clock.advance(0);
      const upcoming = await givenListing(t, tenant, {
        ...base,
        position: 3,
        startsAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
      });
      await givenListing(t, tenant, { ...base, position: 4, active: false });
      await givenListing(t, tenant, { ...base, position: 5, endsAt: new Date(t.clock.now().getTime() - 1000).toISOString() });
      await gemListing(); // another community

      const u = await givenUser(t, tenant);
      expect((await grant(t, tenant, u.userId, xp.id, 60)).status).toBe(201);

      const plain = await userGet(t, u, `/v1/store/listings?containerId=${community.id}&enrichRequirements=false`).expect(200);
      expect(plain.body).toMatchObject({ page: 1, limit: 20, total: 3, hasNextPage: false });
      expect(plain.body.items.map((l: { id: string }) => l.id)).toEqual([first.id, second.id, upcoming.id]);
      expect(plain.body.items[0]).toMatchObject({
        kind: 'resource',
        totalSupply: 10,
        remainingSupply: 10,
        sold: 0,
        perUserLimit: 2,
        requirementIds: [address.id, veteran.id],
        price: [{ resourceTypeId: xp.id, amount: 50 }],
      });
      expect(plain.body.items[0]).not.toHaveProperty('requirements');
      expect(plain.body.items[0]).not.toHaveProperty('canBuy');

      const page2 = await userGet(t, u, `/v1/store/listings?containerId=${community.slug}&enrichRequirements=false&limit=2&page=2`).expect(
        200,
      );
      expect(page2.body).toMatchObject({ total: 3, page: 2, limit: 2, hasNextPage: false });
      expect(page2.body.items.map((l: { id: string }) => l.id)).toEqual([upcoming.id]);

      const rich = await userGet(t, u, `/v1/store/listings?containerId=${community.id}&enrichRequirements=true`).expect(200);
      const [a, b, cUp] = rich.body.items;
      expect(a.requirements.map((r: { id: string; savedData: unknown }) => [r.id, r.savedData])).toEqual([
        [address.id, null],
        [veteran.id, null],
      ]);
      expect(a.requirements[0]).toMatchObject({ key: address.key, kind: 'data', schema: ADDRESS_SCHEMA, personalData: true });
      expect(a).toMatchObject({ purchasedCount: 0, canBuy: false, unavailableReasons: [`requirement_not_met:${veteran.id}`] });
      expect(b).toMatchObject({ requirements: [], canBuy: true, unavailableReasons: [] });
      expect(cUp).toMatchObject({ canBuy: false, unavailableReasons: ['not_started'] });

      // Spending the balance makes every listing unaffordable.
      await purchase(t, u, second.id).expect(201);
      const after = await userGet(t, u, `/v1/store/listings?containerId=${community.id}&enrichRequirements=1`).expect(200);
      expect(after.body.items[1]).toMatchObject({ purchasedCount: 1, canBuy: false, unavailableReasons: ['insufficient_balance'] });
    });

    it('requires enrichRequirements as a boolean and containerId', async () => {
      const u = await givenUser(t, tenant);
      expect((await userGet(t, u, `/v1/store/listings?containerId=${c.id}`)).body).toMatchObject({ code: 10002 });
      expect((await userGet(t, u, `/v1/store/listings?containerId=${c.id}&enrichRequirements=maybe`)).status).toBe(400);
      expect((await userGet(t, u, '/v1/store/listings?enrichRequirements=true')).status).toBe(400);
      expect((await userGet(t, u, `/v1/store/listings?containerId=${c.id}&enrichRequirements=true&limit=101`)).status).toBe(400);
    });
  });

  describe('management', () => {
    it('refuses inconsistent listings and requirements', async () => {
      const elsewhere = await givenCommunity(t, tenant);
      const foreignXp = await givenResourceType(t, tenant, elsewhere.id);
      const base = { communityId: c.id, kind: 'resource', resourceTypeId: coins.id, price: [{ resourceTypeId: gems.id, amount: 1 }] };
      const post = (body: object) => admin().post('/v1/admin/store/listings', { name: 'x', ...body });
      expect((await post({ ...base, price: [{ resourceTypeId: foreignXp.id, amount: 1 }] })).body).toMatchObject({
        code: 10002,
        error: 'invalid_listing',
      });
      expect((await post({ ...base, resourceTypeId: foreignXp.id })).body.error).toBe('invalid_listing');
      expect(
        (
          await post({
            ...base,
            price: [
              { resourceTypeId: gems.id, amount: 1 },
              { resourceTypeId: gems.id, amount: 2 },
            ],
          })
        ).body.error,
      ).toBe('invalid_listing');
      expect((await post({ ...base, itemId: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })).body.error).toBe('invalid_listing');
      expect((await post({ ...base, price: [] })).status).toBe(400);
      expect((await post({ ...base, requirementIds: ['0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10'] })).body.error).toBe('invalid_listing');
      expect((await post({ ...base, startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' })).body.error).toBe(
        'invalid_listing',
      );
      expect((await post({ ...base, communityId: 'nope' })).status).toBe(404);
      // Signed years pass ISO 8601 but neither JavaScript nor PostgreSQL can hold them: a 400, nothing made.
      const listings = async () => Number((await t.dataSource.query('SELECT count(*)::int AS n FROM store_listings'))[0].n);
      const before = await listings();
      for (const when of ['-4714-01-01T00:00:00Z', '+275760-09-13T00:00:00.000Z']) {
        for (const field of ['startsAt', 'endsAt']) {
          const res = await post({ ...base, [field]: when });
          expect({ status: res.status, message: res.body.message, detail: res.body.detail }).toEqual({
            status: 400,
            message: 'generic_client_error',
            detail: expect.stringContaining(`${field} must be a date from 0001-01-01 to 9999-12-31`),
          });
        }
      }
      expect(await listings()).toBe(before);
      const sold = await gemListing({ totalSupply: 2 });
      await purchase(t, await fundedUser(10), sold.id).expect(201);
      expect((await admin().patch(`/v1/admin/store/listings/${sold.id}`, { totalSupply: 0 })).body.error).toBe('invalid_listing');
      expect((await admin().patch(`/v1/admin/store/listings/${sold.id}`, { totalSupply: 1 })).body).toMatchObject({
        totalSupply: 1,
        remainingSupply: 0,
        sold: 1,
      });

      const req = (body: object) =>
        admin().post('/v1/admin/store/requirements', { key: `k${Math.random().toString(36).slice(2, 8)}`, name: 'x', ...body });
      expect((await req({ kind: 'data' })).body.error).toBe('invalid_requirement');
      expect((await req({ kind: 'data', schema: { type: 'string' } })).body.error).toBe('invalid_requirement');
      expect((await req({ kind: 'data', schema: { type: 'object', properties: { a: { type: 'bogus' } } } })).body.error).toBe(
        'invalid_requirement',
      );
      expect((await req({ kind: 'owns_item', itemId: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })).body.error).toBe('invalid_requirement');
      expect((await req({ kind: 'min_resource', resourceTypeId: gems.id })).body.error).toBe('invalid_requirement');
      const made = await req({ kind: 'data', schema: EMAIL_SCHEMA }).expect(201);
      expect(
        (await admin().post('/v1/admin/store/requirements', { key: made.body.key, name: 'y', kind: 'data', schema: EMAIL_SCHEMA })).body,
      ).toMatchObject({ code: 40008 });
      expect((await admin().get(`/v1/admin/store/requirements/${made.body.id}`)).body).toEqual(made.body);
      expect((await adminApi(t, other).get(`/v1/admin/store/requirements/${made.body.id}`)).body.code).toBe(40007);
      expect((await admin().get('/v1/admin/store/requirements?limit=1')).body).toMatchObject({ limit: 1, hasNextPage: true });
      expect((await admin().get(`/v1/admin/store/listings?containerId=${c.id}&limit=1`)).body).toMatchObject({
        limit: 1,
        hasNextPage: true,
      });
    });
  });
});
