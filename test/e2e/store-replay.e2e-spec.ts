import { jest } from '@jest/globals';
import { useTestApp } from '../helpers/test-app.js';
import { subscribeToEveryEvent } from '../helpers/outbox.js';
import { givenItem, givenListing, givenRequirement, grant, type TestUser } from '../factories/e2e.js';
import { ledgerMismatches, purchase, purchaseEvents } from '../helpers/store.js';
import { givenStoreWorld, storeWorldApi, type StoreWorld } from '../helpers/store-world.js';
import { OutboxRepository } from '../../src/integrations/outbox.repository.js';
import { StoreCatalogReadModel } from '../../src/store/store-catalog.read-model.js';

const ADDRESS = { addressLine1: '1 Main Street', city: 'Lyon', country: 'FR' };

// Split from the store spec by behaviour; its world (a tenant, a community, gems and coins) is test/helpers/store-world.ts.
describe('the store: nonce replays and a price changed mid-purchase', () => {
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
});
