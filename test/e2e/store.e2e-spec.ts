import { jest } from '@jest/globals';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { subscribeToEveryEvent } from '../helpers/outbox.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { adminApi, givenCommunity, givenResourceType, grant, type TestCommunity } from '../helpers/communities.js';
import {
  ADDRESS_SCHEMA,
  EMAIL_SCHEMA,
  givenItem,
  givenListing,
  givenPrize,
  givenRequirement,
  ledgerMismatches,
  purchase,
  purchaseEvents,
  userGet,
} from '../helpers/store.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { DomainEvents } from '../../src/common/events/domain-events.js';
import { OutboxRepository } from '../../src/integrations/outbox.repository.js';
import { StoreCatalogReadModel } from '../../src/store/store-catalog.read-model.js';

const ADDRESS = { addressLine1: '1 Main Street', city: 'Lyon', country: 'FR' };

describe('the store', () => {
  let t: TestApp;
  let tenant: TenantCredentials;
  let other: TenantCredentials;
  let c: TestCommunity;
  let gems: { id: string; slug: string };
  let coins: { id: string; slug: string };

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.givenTenant();
    other = await t.givenTenant();
    c = await givenCommunity(t, tenant);
    gems = await givenResourceType(t, tenant, c.id, { slug: 'gems' });
    // Global: a scoped type (a quest event's score) is not for sale.
    coins = await givenResourceType(t, tenant, c.id, { slug: 'coins' });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  const admin = () => adminApi(t, tenant);
  /** A user holding `gemAmount` gems (and `coinAmount` coins). */
  const fundedUser = async (gemAmount: number, coinAmount = 0) => {
    const u = await givenUser(t, tenant);
    if (gemAmount) expect((await grant(t, tenant, u.userId, gems.id, gemAmount)).status).toBe(201);
    if (coinAmount) expect((await grant(t, tenant, u.userId, coins.id, coinAmount)).status).toBe(201);
    return u;
  };
  const balances = async (u: TestUser) => {
    const res = await userGet(t, u, `/v1/store/balance?containerId=${c.slug}`).expect(200);
    return Object.fromEntries(res.body.resources.map((r: { slug: string; balance: number }) => [r.slug, r.balance]));
  };
  /** A listing selling 5 coins for `price` gems unless told otherwise. */
  const gemListing = (fields: Record<string, unknown> = {}) =>
    givenListing(t, tenant, {
      communityId: c.id,
      kind: 'resource',
      resourceTypeId: coins.id,
      quantity: 5,
      price: [{ resourceTypeId: gems.id, amount: 10 }],
      ...fields,
    });

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

  describe('purchases', () => {
    it('debits the price, grants the resource, records the purchase and notifies, answering 201', async () => {
      const u = await fundedUser(25);
      const l = await gemListing({ totalSupply: 3 });
      const res = await purchase(t, u, l.id, { nonce: 'order-1' }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        listingId: l.id,
        listingName: l.name,
        communityId: c.id,
        nonce: 'order-1',
        kind: 'resource',
        itemId: null,
        prizeId: null,
        resourceTypeId: coins.id,
        quantity: 5,
        price: [{ resourceTypeId: gems.id, amount: 10 }],
        createdAt: expect.any(String),
        replayed: false,
      });
      expect(await balances(u)).toEqual({ gems: 15, coins: 5 });
      expect((await admin().get(`/v1/admin/store/listings/${l.id}`)).body).toMatchObject({ sold: 1, remainingSupply: 2 });

      const list = await userGet(t, u, `/v1/store/purchase?containerId=${c.slug}`).expect(200);
      expect(list.body).toMatchObject({ total: 1, page: 1, hasNextPage: false });
      const { replayed: _r, ...stored } = res.body;
      expect(list.body.items).toEqual([stored]);

      const notes = await userGet(t, u, `/v1/user/notifications?containerId=${c.id}`).expect(200);
      expect(notes.body.items.find((n: { type: string }) => n.type === 'purchase_completed')).toMatchObject({
        data: { purchaseId: res.body.id, listingId: l.id },
      });
      const ledger: { reference: string; delta: string }[] = await t.dataSource.query(
        'SELECT reference, delta FROM resource_ledger WHERE user_id = $1 AND reason = $2 ORDER BY delta',
        [u.userId, 'store_purchase'],
      );
      expect(ledger.map((e) => [e.reference, Number(e.delta)])).toEqual([
        [res.body.id, -10],
        [res.body.id, 5],
      ]);
      expect(await ledgerMismatches(t, [gems.id, coins.id])).toEqual([]);
    });

    it('lists purchases newest first, paginated, per community and per user', async () => {
      const u = await fundedUser(100);
      const l = await gemListing();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push((await purchase(t, u, l.id).expect(201)).body.id);
        t.clock.advance(1000);
      }
      const page1 = await userGet(t, u, `/v1/store/purchase?containerId=${c.id}&limit=2`).expect(200);
      expect(page1.body).toMatchObject({ total: 3, hasNextPage: true });
      expect(page1.body.items.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
      const otherUser = await givenUser(t, tenant);
      expect((await userGet(t, otherUser, `/v1/store/purchase?containerId=${c.id}`).expect(200)).body.total).toBe(0);
      const elsewhere = await givenCommunity(t, tenant);
      expect((await userGet(t, u, `/v1/store/purchase?containerId=${elsewhere.id}`).expect(200)).body.total).toBe(0);
      expect((await userGet(t, u, '/v1/store/purchase')).status).toBe(400);
    });

    it('debits a price of several resources, and charges nothing when one of them is short', async () => {
      const rich = await fundedUser(10, 4);
      const l = await givenListing(t, tenant, {
        communityId: c.id,
        kind: 'resource',
        resourceTypeId: gems.id,
        quantity: 1,
        price: [
          { resourceTypeId: gems.id, amount: 10 },
          { resourceTypeId: coins.id, amount: 4 },
        ],
      });
      await purchase(t, rich, l.id).expect(201);
      expect(await balances(rich)).toEqual({ gems: 1, coins: 0 });

      const poor = await fundedUser(10, 3);
      const res = await purchase(t, poor, l.id).expect(409);
      expect(res.body).toMatchObject({
        code: 20103,
        error: 'insufficient_balance',
        details: { resourceTypeId: coins.id, required: 4, balance: 3 },
      });
      expect(await balances(poor)).toEqual({ gems: 10, coins: 3 });
      expect((await userGet(t, poor, `/v1/store/purchase?containerId=${c.id}`)).body.total).toBe(0);
      expect(await ledgerMismatches(t, [gems.id, coins.id])).toEqual([]);
    });

    it('grants an inventory item, and a prize, inside the purchase', async () => {
      const item = await givenItem(t, tenant, c.id, { supply: 5 });
      const itemListing = await gemListing({ kind: 'item', resourceTypeId: undefined, itemId: item.id, quantity: 2 });
      const prize = await givenPrize(t, tenant, { totalSupply: 3 });
      const prizeListing = await gemListing({ kind: 'prize', resourceTypeId: undefined, prizeId: prize.id, quantity: 1 });
      const u = await fundedUser(100);

      const bought = await purchase(t, u, itemListing.id).expect(201);
      expect(bought.body).toMatchObject({ kind: 'item', itemId: item.id, quantity: 2 });
      const owned: { quantity: number }[] = await t.dataSource.query(
        'SELECT quantity FROM user_items WHERE user_id = $1 AND item_id = $2',
        [u.userId, item.id],
      );
      expect(owned).toEqual([{ quantity: 2 }]);

      await purchase(t, u, prizeListing.id).expect(201);
      const mine = await userGet(t, u, '/v1/inventory/prizes?ownedOnly=true').expect(200);
      expect(mine.body.items).toEqual([expect.objectContaining({ id: prize.id, ownedQuantity: 1, awarded: 1, remainingSupply: 2 })]);
      expect(await balances(u)).toMatchObject({ gems: 80 });
    });

    it('refuses when what the listing grants has run out, charging nothing', async () => {
      const item = await givenItem(t, tenant, c.id, { supply: 1 });
      const l = await gemListing({ kind: 'item', resourceTypeId: undefined, itemId: item.id, quantity: 1 });
      const [a, b] = [await fundedUser(10), await fundedUser(10)];
      await purchase(t, a, l.id).expect(201);
      expect((await purchase(t, b, l.id).expect(409)).body).toMatchObject({ code: 40002, error: 'listing_sold_out' });
      expect(await balances(b)).toMatchObject({ gems: 10 });
    });

    it('says sold_out in the enriched listings once what a listing grants has less left than one purchase, as the purchase would refuse', async () => {
      const item = await givenItem(t, tenant, c.id, { supply: 3 });
      const itemListing = await gemListing({ kind: 'item', resourceTypeId: undefined, itemId: item.id, quantity: 2, totalSupply: 10 });
      const prize = await givenPrize(t, tenant, { totalSupply: 1 });
      const prizeListing = await gemListing({ kind: 'prize', resourceTypeId: undefined, prizeId: prize.id, quantity: 1 });
      const [a, b] = [await fundedUser(100), await fundedUser(100)];
      const shown = async (u: TestUser) => {
        const res = await userGet(t, u, `/v1/store/listings?containerId=${c.id}&enrichRequirements=true&limit=100`).expect(200);
        const of = (id: string) => {
          const l = (
            res.body.items as { id: string; canBuy: boolean; unavailableReasons: string[]; remainingSupply: number | null }[]
          ).find((x) => x.id === id)!;
          return { canBuy: l.canBuy, unavailableReasons: l.unavailableReasons, remainingSupply: l.remainingSupply };
        };
        return { item: of(itemListing.id), prize: of(prizeListing.id) };
      };
      expect(await shown(b)).toEqual({
        item: { canBuy: true, unavailableReasons: [], remainingSupply: 10 },
        prize: { canBuy: true, unavailableReasons: [], remainingSupply: null },
      });
      // One unit of the item left (two per purchase), and the prize's one unit awarded outside the store.
      await purchase(t, a, itemListing.id).expect(201);
      await admin()
        .post(`/v1/admin/prizes/${prize.id}/awards`, { userId: a.userId, reason: 'tournament_winner', idempotencyKey: `award-${prize.id}` })
        .expect(201);
      expect(await shown(b)).toEqual({
        item: { canBuy: false, unavailableReasons: ['sold_out'], remainingSupply: 9 },
        prize: { canBuy: false, unavailableReasons: ['sold_out'], remainingSupply: null },
      });
      expect((await purchase(t, b, itemListing.id).expect(409)).body).toMatchObject({ error: 'listing_sold_out' });
      expect((await purchase(t, b, prizeListing.id).expect(409)).body).toMatchObject({ error: 'listing_sold_out' });
    });

    it("refuses a purchase whose expectedPrice is not the listing's price now (409 price_changed), charging nothing; the same nonce then buys at the price agreed", async () => {
      const item = await givenItem(t, tenant, c.id);
      const itemListing = await gemListing({ kind: 'item', resourceTypeId: undefined, itemId: item.id, quantity: 1 });
      const coinListing = await gemListing();
      const u = await fundedUser(1000);
      const at = (amount: number) => [{ resourceTypeId: gems.id, amount }];
      // As shown: bought (the item listing on the one-statement path, the coins on the general one).
      await purchase(t, u, itemListing.id, { nonce: 'shown-item', expectedPrice: at(10) }).expect(201);
      await purchase(t, u, coinListing.id, { nonce: 'shown-coins', expectedPrice: at(10) }).expect(201);
      // The operator raises both prices; the player's next purchases still expect 10.
      for (const l of [itemListing, coinListing])
        await admin()
          .patch(`/v1/admin/store/listings/${l.id}`, { price: at(500) })
          .expect(200);
      const seen: object[] = [];
      for (const l of [itemListing, coinListing]) {
        const res = await purchase(t, u, l.id, { nonce: `after-${l.id}`, expectedPrice: at(10) });
        seen.push({ status: res.status, error: res.body.error, price: res.body.details?.price });
      }
      expect(seen).toEqual([
        { status: 409, error: 'price_changed', price: at(500) },
        { status: 409, error: 'price_changed', price: at(500) },
      ]);
      expect(await balances(u)).toMatchObject({ gems: 980 });
      // The nonce was not used: agreeing to the new price buys with it.
      const bought = await purchase(t, u, coinListing.id, { nonce: `after-${coinListing.id}`, expectedPrice: at(500) }).expect(201);
      expect(bought.body).toMatchObject({ replayed: false, price: at(500) });
      expect(await balances(u)).toMatchObject({ gems: 480 });
      // A replay answers the original purchase whatever expectedPrice says now.
      expect((await purchase(t, u, itemListing.id, { nonce: 'shown-item', expectedPrice: at(7) }).expect(201)).body).toMatchObject({
        replayed: true,
        price: at(10),
      });
    });

    it('reads an item listing once for the purchases that follow, again once it changes or READ_CACHE_MS passes, and always charges the price of the row', async () => {
      const item = await givenItem(t, tenant, c.id);
      const l = await gemListing({ kind: 'item', resourceTypeId: undefined, itemId: item.id, quantity: 1 });
      const u = await fundedUser(200);
      const catalog = t.app.get(StoreCatalogReadModel);
      const reads = jest.spyOn(catalog, 'purchaseTarget');
      const buy = async () => {
        const res = await purchase(t, u, l.id).expect(201);
        return { listingName: res.body.listingName as string, price: res.body.price as unknown };
      };
      const at = (amount: number) => [{ resourceTypeId: gems.id, amount }];
      try {
        expect([await buy(), await buy()]).toEqual([
          { listingName: l.name, price: at(10) },
          { listingName: l.name, price: at(10) },
        ]);
        expect(reads).toHaveBeenCalledTimes(1);

        // Changed behind the API's back (no drop): the purchase's statement refuses the kept
        // price and the general path sells at the row's.
        await t.dataSource.query('UPDATE store_listings SET price = $2 WHERE id = $1', [l.id, JSON.stringify(at(15))]);
        expect(await buy()).toEqual({ listingName: l.name, price: at(15) });

        // Changed through the API: dropped at the commit, read again, named and priced anew.
        await admin()
          .patch(`/v1/admin/store/listings/${l.id}`, { name: 'Renamed sword', price: at(20) })
          .expect(200);
        expect(await buy()).toEqual({ listingName: 'Renamed sword', price: at(20) });
        expect(reads).toHaveBeenCalledTimes(2);
        await buy();
        expect(reads).toHaveBeenCalledTimes(2);
        t.clock.advance(t.config.READ_CACHE_MS + 1);
        await buy();
        expect(reads).toHaveBeenCalledTimes(3);
      } finally {
        reads.mockRestore();
      }
      expect(await balances(u)).toMatchObject({ gems: 200 - 10 - 10 - 15 - 20 - 20 - 20 });
      expect(await ledgerMismatches(t, [gems.id])).toEqual([]);
    });
  });

  describe('nonce replays', () => {
    it('answers a replay of the same request with the original purchase and charges once', async () => {
      const u = await fundedUser(100);
      const address = await givenRequirement(t, tenant);
      const l = await gemListing({ requirementIds: [address.id] });
      const body = { nonce: 'same-nonce', requirementData: [{ requirementId: address.id, shouldSave: false, data: ADDRESS }] };
      const first = await purchase(t, u, l.id, body).expect(201);
      // Same request, keys in another order and shouldSave=false left out: the same request.
      const again = await purchase(t, u, l.id, {
        nonce: 'same-nonce',
        requirementData: [{ requirementId: address.id, data: { country: 'FR', city: 'Lyon', addressLine1: '1 Main Street' } }],
      }).expect(201);
      expect(again.body).toEqual({ ...first.body, replayed: true });
      expect(await balances(u)).toMatchObject({ gems: 90 });
      // Even after the listing is withdrawn, the replay still answers the original.
      await admin().patch(`/v1/admin/store/listings/${l.id}`, { active: false }).expect(200);
      expect((await purchase(t, u, l.id, body).expect(201)).body).toMatchObject({ id: first.body.id, replayed: true });
      // Another user may use the same nonce.
      const v = await fundedUser(10);
      const l2 = await gemListing();
      await purchase(t, v, l2.id, { nonce: 'same-nonce' }).expect(201);
    });

    it('refuses the same nonce with a different request (409 nonce_reused), charging nothing', async () => {
      const u = await fundedUser(100);
      const address = await givenRequirement(t, tenant);
      const l = await gemListing({ requirementIds: [address.id] });
      const l2 = await gemListing({ requirementIds: [address.id] });
      await purchase(t, u, l.id, { nonce: 'n1', requirementData: [{ requirementId: address.id, data: ADDRESS }] }).expect(201);
      const otherData = await purchase(t, u, l.id, {
        nonce: 'n1',
        requirementData: [{ requirementId: address.id, data: { ...ADDRESS, city: 'Paris' } }],
      }).expect(409);
      expect(otherData.body).toMatchObject({ code: 40005, error: 'nonce_reused' });
      const otherSave = await purchase(t, u, l.id, {
        nonce: 'n1',
        requirementData: [{ requirementId: address.id, shouldSave: true, data: ADDRESS }],
      }).expect(409);
      expect(otherSave.body.code).toBe(40005);
      const otherListing = await purchase(t, u, l2.id, {
        nonce: 'n1',
        requirementData: [{ requirementId: address.id, data: ADDRESS }],
      }).expect(409);
      expect(otherListing.body).toMatchObject({
        code: 40005,
        message: 'nonce_reused',
        error: 'nonce_reused',
        detail: 'This nonce was already used for another listing',
      });
      expect(await balances(u)).toMatchObject({ gems: 90 });
    });

    it('makes concurrent requests with one nonce a single purchase', async () => {
      const u = await fundedUser(100);
      const l = await gemListing();
      const results = await Promise.all(Array.from({ length: 8 }, () => purchase(t, u, l.id, { nonce: 'burst' })));
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
      expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
      expect(results.filter((r) => !r.body.replayed)).toHaveLength(1);
      expect(await balances(u)).toMatchObject({ gems: 90, coins: 5 });
    });

    it('does not consume a nonce when the purchase fails', async () => {
      const u = await fundedUser(5);
      const l = await gemListing();
      expect((await purchase(t, u, l.id, { nonce: 'retry-me' }).expect(409)).body.code).toBe(20103);
      expect((await grant(t, tenant, u.userId, gems.id, 5)).status).toBe(201);
      expect((await purchase(t, u, l.id, { nonce: 'retry-me' }).expect(201)).body.replayed).toBe(false);
    });
  });

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

  // The one-statement purchase writes the events it built from the listing it read; the price
  // can change before that statement runs. Whatever the price, a committed purchase has every
  // event, committed with it: nothing is left to write after the commit (where a crash loses it
  // and a retry, answered as a replay, does not write it).
  describe('a price changed between the listing read and the purchase', () => {
    type Price = { resourceTypeId: string; amount: number }[];
    // The events are read in the outbox, which writes only what a sink takes.
    beforeAll(() => subscribeToEveryEvent(t.dataSource, tenant.id));

    /**
     * Buys `listingId` as `u` with the listing's price set to `price` just after the purchase read
     * it, while every outbox write outside a transaction fails (as when the process dies just after
     * a commit); then sends the same nonce again, as a client whose request failed does.
     */
    const buyAcrossPriceChange = async (u: TestUser, listingId: string, price: Price) => {
      const catalog = t.app.get(StoreCatalogReadModel);
      const read = catalog.purchaseTarget.bind(catalog);
      const target = jest.spyOn(catalog, 'purchaseTarget').mockImplementationOnce(async (...args) => {
        const found = await read(...args);
        await admin().patch(`/v1/admin/store/listings/${listingId}`, { price }).expect(200);
        return found;
      });
      const outbox = t.app.get(OutboxRepository);
      const insert = outbox.insert.bind(outbox);
      const insertions = jest
        .spyOn(outbox, 'insert')
        .mockImplementation((events, em) =>
          em?.queryRunner?.isTransactionActive ? insert(events, em) : Promise.reject(new Error('the process died after the commit')),
        );
      try {
        const nonce = `price-change-${listingId}`;
        const first = await purchase(t, u, listingId, { nonce });
        const again = await purchase(t, u, listingId, { nonce });
        expect(target).toHaveBeenCalledTimes(2);
        return { first, again };
      } finally {
        target.mockRestore();
        insertions.mockRestore();
      }
    };

    const expectWholePurchaseAt = async (price: Price) => {
      const u = await fundedUser(100, 100);
      const item = await givenItem(t, tenant, c.id);
      const itemListing = (p: Price) => givenListing(t, tenant, { communityId: c.id, kind: 'item', itemId: item.id, price: p });
      const changed = await itemListing([{ resourceTypeId: gems.id, amount: 10 }]);
      const { first, again } = await buyAcrossPriceChange(u, changed.id, price);
      expect({ status: again.status, replayed: again.body.replayed, price: again.body.price }).toEqual({
        status: 201,
        replayed: true,
        price,
      });
      const id = again.body.id as string;

      // The same events as a purchase of a listing at that price, committed in the purchase's transaction.
      const reference = await itemListing(price);
      const plain = await purchase(t, u, reference.id).expect(201);
      const events = await purchaseEvents(t, tenant.id, id, changed.id);
      expect(events.map((e) => e.type)).toEqual(['inventory.item_granted', 'resource.debited', 'store.purchase_completed']);
      expect(events).toEqual(await purchaseEvents(t, tenant.id, plain.body.id, reference.id));
      const [together] = await t.dataSource.query(
        `SELECT count(*)::int AS events, count(*) FILTER (WHERE o.xmin = p.xmin)::int AS with_purchase
           FROM outbox_events o JOIN store_purchases p ON p.id = $1
          WHERE o.payload->>'purchaseId' = $2 OR o.payload->>'reference' = $2`,
        [id, id],
      );
      expect(together).toEqual({ events: 3, with_purchase: 3 });
      // The first answer was that purchase (nothing failed after its commit).
      expect({ status: first.status, replayed: first.body.replayed, id: first.body.id }).toEqual({ status: 201, replayed: false, id });

      // Sold = debits = granted = held, each purchase charged its price once, Σ ledger = balance.
      const [counts] = await t.dataSource.query(
        `SELECT (SELECT count(*) FROM store_purchases WHERE listing_id = ANY($1::uuid[]))::int AS purchases,
                (SELECT SUM(sold) FROM store_listing_shards WHERE listing_id = ANY($1::uuid[]))::int AS sold,
                (SELECT count(*) FROM resource_ledger l JOIN store_purchases p ON l.reference = p.id::text
                  WHERE p.listing_id = ANY($1::uuid[]) AND l.reason = 'store_purchase')::int AS debits,
                (SELECT SUM(granted) FROM inventory_item_shards WHERE item_id = $2)::int AS granted,
                (SELECT count(*) FROM item_grants WHERE item_id = $2)::int AS grants,
                (SELECT SUM(quantity) FROM user_items WHERE item_id = $2)::int AS held`,
        [[changed.id, reference.id], item.id],
      );
      expect(counts).toEqual({ purchases: 2, sold: 2, debits: 2, granted: 2, grants: 2, held: 2 });
      const spent = (id: string) => 2 * (price.find((p) => p.resourceTypeId === id)?.amount ?? 0);
      expect(await balances(u)).toEqual({ gems: 100 - spent(gems.id), coins: 100 - spent(coins.id) });
      expect(await ledgerMismatches(t, [gems.id, coins.id])).toEqual([]);
    };

    it('to another resource', () => expectWholePurchaseAt([{ resourceTypeId: coins.id, amount: 7 }]));

    it('to another amount of the same resource', () => expectWholePurchaseAt([{ resourceTypeId: gems.id, amount: 15 }]));
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

// The one-statement purchase (store_purchase_item) when a module handles one of its events IN the
// purchase's transaction (DomainEvents.inTransaction): the statement and the handler run in one
// transaction, so the handler's writes commit with the purchase and roll back with a refusal, and
// after-commit handlers still run only after the commit.
describe('the one-statement purchase with an in-transaction handler of its events', () => {
  let t: TestApp;
  let tenant: TenantCredentials;
  const seen: { inTransaction: boolean; afterCommit: number }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.givenTenant();
    await subscribeToEveryEvent(t.dataSource, tenant.id);
    const events = t.app.get(DomainEvents);
    events.inTransaction('inventory.supply_taken', async ({ itemId }, em) => {
      seen.push({ inTransaction: em.queryRunner?.isTransactionActive ?? false, afterCommit: 0 });
      await em.query('CREATE TABLE IF NOT EXISTS test_supply_log (item_id uuid NOT NULL)');
      await em.query('INSERT INTO test_supply_log (item_id) VALUES ($1)', [itemId]);
    });
    events.afterCommit('inventory.supply_taken', () => {
      const last = seen.at(-1);
      if (last) last.afterCommit++;
    });
  });
  afterAll(() => t.close());

  it('runs the handler in the transaction, commits its write with the purchase, and writes nothing on a refusal', async () => {
    const c = await givenCommunity(t, tenant);
    const gems = await givenResourceType(t, tenant, c.id, { slug: 'gems' });
    const item = await givenItem(t, tenant, c.id);
    const listing = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: gems.id, amount: 5 }],
    });
    const u = await givenUser(t, tenant);
    expect((await grant(t, tenant, u.userId, gems.id, 7)).status).toBe(201);

    const bought = await purchase(t, u, listing.id).expect(201);
    expect(bought.body).toMatchObject({ kind: 'item', itemId: item.id, replayed: false });
    expect(seen).toEqual([{ inTransaction: true, afterCommit: 1 }]);
    const logged = async () =>
      (await t.dataSource.query('SELECT count(*)::int AS n FROM test_supply_log WHERE item_id = $1', [item.id]))[0].n;
    expect(await logged()).toBe(1);

    // 2 gems left: refused by the function inside the transaction; nothing of it stays.
    const refused = await purchase(t, u, listing.id).expect(409);
    expect(refused.body).toMatchObject({ error: 'insufficient_balance', details: { required: 5, balance: 2 } });
    expect(seen).toEqual([{ inTransaction: true, afterCommit: 1 }]);
    expect(await logged()).toBe(1);
    const [counts] = await t.dataSource.query(
      `SELECT (SELECT count(*) FROM store_purchases WHERE user_id = $1)::int AS purchases,
              (SELECT quantity FROM user_items WHERE user_id = $1 AND item_id = $2) AS held,
              (SELECT balance FROM resource_balances WHERE user_id = $1 AND resource_type_id = $3)::int AS balance,
              (SELECT count(*) FROM notifications WHERE user_id = $1)::int AS notifications`,
      [u.userId, item.id, gems.id],
    );
    expect(counts).toEqual({ purchases: 1, held: 1, balance: 2, notifications: 2 });
    expect(await ledgerMismatches(t, [gems.id])).toEqual([]);
  });

  it('writes the same events to the outbox as the general path does (an item listing with a requirement takes it)', async () => {
    const c = await givenCommunity(t, tenant);
    const gems = await givenResourceType(t, tenant, c.id, { slug: 'gems' });
    const item = await givenItem(t, tenant, c.id);
    const fast = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: gems.id, amount: 3 }],
    });
    const requirement = await givenRequirement(t, tenant, { kind: 'data', schema: EMAIL_SCHEMA });
    const general = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: gems.id, amount: 3 }],
      requirementIds: [requirement.id],
    });
    const u = await givenUser(t, tenant);
    expect((await grant(t, tenant, u.userId, gems.id, 10)).status).toBe(201);
    const a = await purchase(t, u, fast.id).expect(201);
    const b = await purchase(t, u, general.id, {
      requirementData: [{ requirementId: requirement.id, data: { email: 'a@example.com' } }],
    }).expect(201);
    const viaFunction = await purchaseEvents(t, tenant.id, a.body.id, fast.id);
    expect(viaFunction.map((e) => e.type)).toEqual(['inventory.item_granted', 'resource.debited', 'store.purchase_completed']);
    expect(viaFunction).toEqual(await purchaseEvents(t, tenant.id, b.body.id, general.id));
  });
});
