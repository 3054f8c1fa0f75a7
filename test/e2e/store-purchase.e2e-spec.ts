import { jest } from '@jest/globals';
import { useTestApp } from '../helpers/test-app.js';
import { givenCommunity, givenItem, givenListing, givenPrize, givenUser, type TestUser } from '../factories/e2e.js';
import { ledgerMismatches, purchase, userGet } from '../helpers/store.js';
import { givenStoreWorld, storeWorldApi, type StoreWorld } from '../helpers/store-world.js';
import { StoreCatalogReadModel } from '../../src/store/store-catalog.read-model.js';

// Split from the store spec by behaviour; its world (a tenant, a community, gems and coins) is test/helpers/store-world.ts.
describe('the store: purchases', () => {
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
});
