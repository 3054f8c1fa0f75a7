import { useTestApp } from '../helpers/test-app.js';
import { adminApi } from '../helpers/admin-api.js';
import { givenCommunity, givenItem, givenListing, givenRequirement, givenResourceType, givenUser, grant } from '../factories/e2e.js';
import { ADDRESS_SCHEMA, EMAIL_SCHEMA } from '../factories/inputs.js';
import { purchase, userGet } from '../helpers/store.js';
import { givenStoreWorld, storeWorldApi, type StoreWorld } from '../helpers/store-world.js';

const ADDRESS = { addressLine1: '1 Main Street', city: 'Lyon', country: 'FR' };

// Split from the store spec by behaviour; its world (a tenant, a community, gems and coins) is test/helpers/store-world.ts.
describe('the store: refusals and requirements', () => {
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

  describe('refusals, each with its own code and nothing charged', () => {
    it('sold out (409 40002)', async () => {
      const l = await gemListing({ totalSupply: 1 });
      const [a, b] = [await fundedUser(10), await fundedUser(10)];
      await purchase(t, a, l.id).expect(201);
      const res = await purchase(t, b, l.id).expect(409);
      expect(res.body).toMatchObject({ code: 40002, error: 'listing_sold_out' });
      expect(await balances(b)).toMatchObject({ gems: 10 });
    });

    it('per-user limit reached (409 40003)', async () => {
      const l = await gemListing({ perUserLimit: 2 });
      const u = await fundedUser(100);
      await purchase(t, u, l.id).expect(201);
      await purchase(t, u, l.id).expect(201);
      const res = await purchase(t, u, l.id).expect(409);
      expect(res.body).toMatchObject({ code: 40003, error: 'purchase_limit_reached', details: { perUserLimit: 2 } });
      expect(await balances(u)).toMatchObject({ gems: 80 });
      // Another user has their own allowance.
      await purchase(t, await fundedUser(10), l.id).expect(201);
    });

    it('outside the window (409 40004): before it opens and once it has closed', async () => {
      const now = t.clock.now().getTime();
      const l = await gemListing({ startsAt: new Date(now + 60_000).toISOString(), endsAt: new Date(now + 120_000).toISOString() });
      const u = await fundedUser(100);
      expect((await purchase(t, u, l.id).expect(409)).body).toMatchObject({ code: 40004, error: 'listing_not_available' });
      t.clock.advance(60_000);
      await purchase(t, u, l.id).expect(201);
      t.clock.advance(60_000);
      expect((await purchase(t, u, l.id).expect(409)).body.code).toBe(40004);
      expect(await balances(u)).toMatchObject({ gems: 90 });
    });

    it("unknown, withdrawn, another tenant's or another community's listing (404 40001)", async () => {
      const u = await fundedUser(100);
      expect((await purchase(t, u, '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10').expect(404)).body).toMatchObject({
        code: 40001,
        error: 'listing_not_found',
      });
      expect((await purchase(t, u, 'not-a-uuid').expect(404)).body.code).toBe(40001);
      const hidden = await gemListing({ active: false });
      expect((await purchase(t, u, hidden.id).expect(404)).body.code).toBe(40001);

      const foreignCommunity = await givenCommunity(t, other);
      const foreignXp = await givenResourceType(t, other, foreignCommunity.id);
      const foreign = await givenListing(t, other, {
        communityId: foreignCommunity.id,
        kind: 'resource',
        resourceTypeId: foreignXp.id,
        price: [{ resourceTypeId: foreignXp.id, amount: 1 }],
      });
      expect((await purchase(t, u, foreign.id).expect(404)).body.code).toBe(40001);
      expect((await adminApi(t, other).get(`/v1/admin/store/listings/${(await gemListing()).id}`)).status).toBe(404);

      const l = await gemListing();
      const elsewhere = await givenCommunity(t, tenant);
      expect((await purchase(t, u, l.id, {}, `?containerId=${elsewhere.slug}`).expect(404)).body.code).toBe(40001);
      await purchase(t, u, l.id, {}, `?containerId=${c.slug}`).expect(201);
      expect(await balances(u)).toMatchObject({ gems: 90 });
    });

    it('refuses a malformed body with 400', async () => {
      const u = await fundedUser(100);
      const l = await gemListing();
      const post = (body: unknown) =>
        t
          .http()
          .post(`/v1/store/purchase/${l.id}`)
          .set('Authorization', u.auth)
          .send(body as object);
      expect((await post({})).body).toMatchObject({ code: 10002 });
      expect((await post({ nonce: '' })).status).toBe(400);
      expect((await post({ nonce: 'x'.repeat(129) })).status).toBe(400);
      expect((await post({ nonce: 'a', requirementData: [{ requirementId: 'r', data: 'text' }] })).status).toBe(400);
      expect((await post({ nonce: 'a', extra: 1 })).status).toBe(400);
      expect((await t.http().post(`/v1/store/purchase/${l.id}`).send({ nonce: 'a' })).status).toBe(401);
      expect(await balances(u)).toMatchObject({ gems: 100 });
    });
  });

  describe('requirements', () => {
    const requirementError = (res: {
      status: number;
      body: { code: number; error: string; detail: string; details: { failures: { requirementId: string; reasons: string[] }[] } };
    }) => {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 10002, error: 'requirement_data_invalid' });
      return res.body;
    };

    it("validates data against each requirement's JSON schema and says which failed and why", async () => {
      const address = await givenRequirement(t, tenant, { kind: 'data', schema: ADDRESS_SCHEMA, key: 'addr-check' });
      const email = await givenRequirement(t, tenant, { kind: 'data', schema: EMAIL_SCHEMA, personalData: true });
      const l = await gemListing({ requirementIds: [address.id, email.id] });
      const u = await fundedUser(100);

      const missing = requirementError(await purchase(t, u, l.id, { requirementData: [{ requirementId: address.id, data: ADDRESS }] }));
      expect(missing.details.failures).toEqual([
        { requirementId: email.id, key: email.key, reasons: ['data is required (none given and none saved)'] },
      ]);

      const bad = requirementError(
        await purchase(t, u, l.id, {
          requirementData: [
            { requirementId: address.id, data: { addressLine1: '1 Main Street', zip: 1 } },
            { requirementId: email.id, data: { email: 'nope' } },
          ],
        }),
      );
      expect(bad.detail).toMatch(/^Requirement "addr-check": /);
      expect(bad.details.failures).toEqual([
        {
          requirementId: address.id,
          key: 'addr-check',
          reasons: expect.arrayContaining([
            'data must have property "city"',
            'data must have property "country"',
            'data must not have property "zip"',
          ]),
        },
        { requirementId: email.id, key: email.key, reasons: ['data.email must match format "email"'] },
      ]);

      const unknown = requirementError(
        await purchase(t, u, l.id, {
          requirementData: [
            { requirementId: address.id, data: ADDRESS },
            { requirementId: email.id, data: { email: 'a@example.com' } },
            { requirementId: 'something-else', data: {} },
          ],
        }),
      );
      expect(unknown.details.failures).toEqual([
        { requirementId: 'something-else', key: '', reasons: ['not a requirement of this listing'] },
      ]);

      const twice = requirementError(
        await purchase(t, u, l.id, {
          requirementData: [
            { requirementId: address.id, data: ADDRESS },
            { requirementId: 'addr-check', data: ADDRESS },
            { requirementId: email.id, data: { email: 'a@example.com' } },
          ],
        }),
      );
      expect(twice.details.failures[0]).toMatchObject({ requirementId: address.id, reasons: ['given more than once'] });

      const huge = requirementError(
        await purchase(t, u, l.id, {
          requirementData: [
            { requirementId: address.id, data: { ...ADDRESS, addressLine2: 'x'.repeat(5000) } },
            { requirementId: email.id, data: { email: 'a@example.com' } },
          ],
        }),
      );
      expect(huge.details.failures[0].reasons).toEqual(['data exceeds 4096 bytes']);
      expect(await balances(u)).toMatchObject({ gems: 100 });

      // By id or by key, the valid request goes through.
      await purchase(t, u, l.id, {
        requirementData: [
          { requirementId: 'addr-check', data: ADDRESS },
          { requirementId: email.id, data: { email: 'a@example.com' } },
        ],
      }).expect(201);
      expect(await balances(u)).toMatchObject({ gems: 90 });
    });

    it('checks conditions: owning an item and a minimum earned amount (403 40006)', async () => {
      const badge = await givenItem(t, tenant, c.id);
      const ownsBadge = await givenRequirement(t, tenant, { kind: 'owns_item', itemId: badge.id });
      const veteran = await givenRequirement(t, tenant, { kind: 'min_resource', resourceTypeId: gems.id, minAmount: 50 });
      const l = await gemListing({ requirementIds: [ownsBadge.id, veteran.id] });
      const u = await fundedUser(40);

      const noBadge = await purchase(t, u, l.id).expect(403);
      expect(noBadge.body).toMatchObject({
        code: 40006,
        error: 'requirement_not_met',
        details: { requirementId: ownsBadge.id, kind: 'owns_item' },
      });
      await adminApi(t, tenant).post('/v1/admin/inventory/grants', { userId: u.userId, itemId: badge.id, reason: 'test' }).expect(201);
      const lowXp = await purchase(t, u, l.id).expect(403);
      expect(lowXp.body).toMatchObject({ code: 40006, details: { requirementId: veteran.id, kind: 'min_resource' } });
      expect(await balances(u)).toMatchObject({ gems: 40 });

      // Conditions take no data.
      const withData = requirementError(await purchase(t, u, l.id, { requirementData: [{ requirementId: veteran.id, data: {} }] }));
      expect(withData.details.failures[0].reasons).toEqual(['a min_resource requirement takes no data']);

      expect((await grant(t, tenant, u.userId, gems.id, 10)).status).toBe(201);
      await purchase(t, u, l.id).expect(201);
      // Earned counts, not the spendable balance: spending below 50 keeps the condition met.
      await purchase(t, u, l.id).expect(201);
      expect(await balances(u)).toMatchObject({ gems: 30 });
    });

    it('saves data marked shouldSave (encrypted when personal), offers it back, and reuses it', async () => {
      const address = await givenRequirement(t, tenant, { kind: 'data', schema: ADDRESS_SCHEMA, personalData: true });
      const size = await givenRequirement(t, tenant, {
        kind: 'data',
        personalData: false,
        schema: { type: 'object', required: ['size'], properties: { size: { enum: ['S', 'M', 'L'] } } },
      });
      const l = await gemListing({ requirementIds: [address.id, size.id] });
      const u = await fundedUser(100);

      await purchase(t, u, l.id, {
        requirementData: [
          { requirementId: address.id, shouldSave: true, data: ADDRESS },
          { requirementId: size.id, shouldSave: false, data: { size: 'M' } },
        ],
      }).expect(201);
      const rich = await userGet(t, u, `/v1/store/listings?containerId=${c.id}&enrichRequirements=true&limit=100`).expect(200);
      const mine = rich.body.items.find((x: { id: string }) => x.id === l.id);
      expect(mine.requirements.map((r: { id: string; savedData: unknown }) => [r.id, r.savedData])).toEqual([
        [address.id, ADDRESS],
        [size.id, null],
      ]);
      expect(mine).toMatchObject({ purchasedCount: 1, canBuy: true });

      // At rest: personal data only encrypted.
      const [row]: { data: unknown; data_encrypted: string }[] = await t.dataSource.query(
        'SELECT data, data_encrypted FROM store_saved_requirement_data WHERE user_id = $1 AND requirement_id = $2',
        [u.userId, address.id],
      );
      expect(row.data).toBeNull();
      expect(row.data_encrypted).toMatch(/^v1\./);
      expect(row.data_encrypted).not.toContain('Lyon');

      // Saved data is used when the request leaves the requirement out; non-saved data is still needed.
      const stillNeedsSize = requirementError(await purchase(t, u, l.id, {}));
      expect(stillNeedsSize.details.failures).toEqual([
        { requirementId: size.id, key: size.key, reasons: ['data is required (none given and none saved)'] },
      ]);
      await purchase(t, u, l.id, { requirementData: [{ requirementId: size.id, shouldSave: true, data: { size: 'L' } }] }).expect(201);
      const [plain]: { data: unknown; data_encrypted: string | null }[] = await t.dataSource.query(
        'SELECT data, data_encrypted FROM store_saved_requirement_data WHERE user_id = $1 AND requirement_id = $2',
        [u.userId, size.id],
      );
      expect(plain).toEqual({ data: { size: 'L' }, data_encrypted: null });
      await purchase(t, u, l.id).expect(201);

      // Saving again replaces; another user sees nothing of it.
      await purchase(t, u, l.id, {
        requirementData: [{ requirementId: address.id, shouldSave: true, data: { ...ADDRESS, city: 'Paris' } }],
      }).expect(201);
      const after = await userGet(t, u, `/v1/store/listings?containerId=${c.id}&enrichRequirements=true&limit=100`).expect(200);
      expect(after.body.items.find((x: { id: string }) => x.id === l.id).requirements[0].savedData).toEqual({ ...ADDRESS, city: 'Paris' });
      const stranger = await givenUser(t, tenant);
      const theirs = await userGet(t, stranger, `/v1/store/listings?containerId=${c.id}&enrichRequirements=true&limit=100`).expect(200);
      expect(
        theirs.body.items.find((x: { id: string }) => x.id === l.id).requirements.map((r: { savedData: unknown }) => r.savedData),
      ).toEqual([null, null]);

      // The management API shows what each purchase was given, decrypted, for fulfilment.
      const orders = await admin().get(`/v1/admin/store/purchases?listingId=${l.id}&userId=${u.userId}`).expect(200);
      expect(orders.body.total).toBe(4);
      // The buyer by name, as support looks them up.
      const buyer = (await admin().get(`/v1/admin/users/${u.userId}`).expect(200)).body as { handle: string; displayName: string | null };
      expect(orders.body.items[0]).toMatchObject({ userId: u.userId, handle: buyer.handle, displayName: buyer.displayName });
      expect(buyer.handle).toEqual(expect.any(String));
      expect(orders.body.items[0].requirementData).toEqual([
        { requirementId: address.id, data: { ...ADDRESS, city: 'Paris' } },
        { requirementId: size.id, data: { size: 'L' } },
      ]);
      const [stored]: { requirement_data_encrypted: string }[] = await t.dataSource.query(
        'SELECT requirement_data_encrypted FROM store_purchases WHERE id = $1',
        [orders.body.items[0].id],
      );
      expect(stored.requirement_data_encrypted).not.toContain('Paris');
    });
  });
});
