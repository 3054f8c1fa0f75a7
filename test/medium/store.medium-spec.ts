import { SupplyTakeFunctions1795717161396 } from '../../migrations/1795717161396-SupplyTakeFunctions.js';
import { InventoryService } from '../../src/inventory/inventory.service.js';
import { PrizesService } from '../../src/prizes/prizes.service.js';
import { LedgerService } from '../../src/resources/ledger.service.js';
import { ResourcesService } from '../../src/resources/resources.service.js';
import { StorePurchaseService } from '../../src/store/purchase/store-purchase.service.js';
import { StoreModule } from '../../src/store/store.module.js';
import { StoreListingsService } from '../../src/store/store-listings.service.js';
import { StorePurchaseHistoryService } from '../../src/store/store-purchase-history.service.js';
import { StoreService } from '../../src/store/store.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { UsersModule } from '../../src/users/users.module.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import {
  domainErrorOf,
  givenCommunity,
  givenTenant,
  givenUser,
  inRolledBackTransaction,
  numbers,
  outcomeOf,
  uniqueName,
} from './fixtures.js';

const PAGE = { page: 1, limit: 20, offset: 0 };

/**
 * The store on the real database: listing management (what a listing may grant and cost, every
 * field of an update), the buyer's enriched view, purchases of prizes, and the purchase history.
 */
describe('StoreService, StorePurchaseService (medium: StoreModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let store: StoreService;
  let listings: StoreListingsService;
  let purchaseLists: StorePurchaseHistoryService;
  let purchases: StorePurchaseService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [StoreModule, TenantsModule, UsersModule] });
    store = t.get(StoreService);
    listings = t.get(StoreListingsService);
    purchaseLists = t.get(StorePurchaseHistoryService);
    purchases = t.get(StorePurchaseService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());
  afterEach(() => t.clock.reset());

  const globalType = async (communityId: string) =>
    (await t.get(ResourcesService).createType(tenantId, { communityId, slug: uniqueName('r'), name: 'Gems', kind: 'global' })).id;
  const credit = (userId: string, resourceTypeId: string, amount: number) =>
    t.get(LedgerService).credit(t.dataSource.manager, { tenantId, userId, resourceTypeId, amount, reason: 'medium-test' });
  const givenItem = async (communityId: string) => {
    const inventory = t.get(InventoryService);
    const slot = await inventory.createSlot(tenantId, { communityId, key: uniqueName('k'), name: 'Head' });
    return (await inventory.createItem(tenantId, { communityId, slotId: slot.id, name: 'Hat' })).id;
  };

  it('createListing refuses a target of the wrong kind, an item of another community and a prize of another community', async () => {
    const community = await givenCommunity(t, tenantId);
    const other = await givenCommunity(t, tenantId);
    const gems = await globalType(community);
    const price = [{ resourceTypeId: gems, amount: 5 }];
    const foreignItem = await givenItem(other);
    const foreignPrize = await t.get(PrizesService).create(tenantId, { communityId: other, name: 'Cup', kind: 'physical' });
    const base = { communityId: community, name: 'Thing', price };
    // A resource listing naming an item: the message names the resourceTypeId it needs.
    const wrongKind = await listings.createListing(tenantId, { ...base, kind: 'resource', itemId: foreignItem }).catch((e: Error) => e);
    expect(wrongKind).toMatchObject({ definition: { error: 'invalid_listing' } });
    expect((wrongKind as Error).message).toContain('resourceTypeId');
    expect(await domainErrorOf(listings.createListing(tenantId, { ...base, kind: 'item', itemId: foreignItem }))).toBe('invalid_listing');
    expect(await domainErrorOf(listings.createListing(tenantId, { ...base, kind: 'prize', prizeId: foreignPrize.id }))).toBe(
      'invalid_listing',
    );
    // A scoped type (a quest event's score) is not for sale.
    const score = (
      await t.get(ResourcesService).createType(tenantId, { communityId: community, slug: uniqueName('s'), name: 'Score', kind: 'scoped' })
    ).id;
    const scoped = await listings.createListing(tenantId, { ...base, kind: 'resource', resourceTypeId: score }).catch((e: Error) => e);
    expect(scoped).toMatchObject({ definition: { error: 'invalid_listing' } });
    expect((scoped as Error).message).toContain('scoped');
    expect(await numbers(t.dataSource, 'SELECT count(*) AS n FROM store_listings WHERE community_id = $1', [community])).toEqual({ n: 0 });
  });

  it('updateListing changes every given field, sorts the price by resource type, and clears the window with null', async () => {
    const community = await givenCommunity(t, tenantId);
    const [a, b] = [await globalType(community), await globalType(community)];
    const listing = await listings.createListing(tenantId, {
      communityId: community,
      name: 'Gem pack',
      kind: 'resource',
      resourceTypeId: a,
      price: [{ resourceTypeId: b, amount: 1 }],
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const [low, high] = [a, b].sort();
    const changed = await listings.updateListing(tenantId, listing.id.toUpperCase(), {
      name: 'Big gem pack',
      description: 'More gems',
      imageUrl: 'https://img.example/gems.png',
      price: [
        { resourceTypeId: high.toUpperCase(), amount: 2 },
        { resourceTypeId: low, amount: 3 },
      ],
      requirementIds: [],
      totalSupply: 10,
      perUserLimit: 2,
      startsAt: null,
      endsAt: null,
      active: false,
      position: 7,
    });
    expect(changed).toMatchObject({
      name: 'Big gem pack',
      description: 'More gems',
      imageUrl: 'https://img.example/gems.png',
      price: [
        { resourceTypeId: low, amount: 3 },
        { resourceTypeId: high, amount: 2 },
      ],
      totalSupply: 10,
      perUserLimit: 2,
      startsAt: null,
      endsAt: null,
      active: false,
      position: 7,
    });
    expect(await listings.adminListing(tenantId, listing.id)).toEqual(changed);
    // Windows are set again from strings; an end before the start is refused.
    const later = new Date(Date.now() + 7_200_000).toISOString();
    expect((await listings.updateListing(tenantId, listing.id, { startsAt: later })).startsAt).toEqual(new Date(later));
    expect(await domainErrorOf(listings.updateListing(tenantId, listing.id, { endsAt: new Date().toISOString() }))).toBe('invalid_listing');
    expect(await domainErrorOf(listings.updateListing(tenantId, 'nope', { name: 'x' }))).toBe('listing_not_found');
  });

  it("adminListings lists every community's listings without a container and one community's with it", async () => {
    const tenant = await givenTenant(t);
    const [c1, c2] = [await givenCommunity(t, tenant), await givenCommunity(t, tenant)];
    for (const c of [c1, c2]) {
      const gems = (await t.get(ResourcesService).createType(tenant, { communityId: c, slug: uniqueName('r'), name: 'G', kind: 'global' }))
        .id;
      await listings.createListing(tenant, { communityId: c, name: `L-${c}`, kind: 'resource', resourceTypeId: gems, price: [] });
    }
    expect((await listings.adminListings(tenant, undefined, PAGE)).total).toBe(2);
    const one = await listings.adminListings(tenant, c2, PAGE);
    expect(one).toMatchObject({ total: 1, items: [{ communityId: c2 }] });
    expect((await listings.adminListings(tenantId, undefined, PAGE)).items.every((l) => l.communityId !== c1)).toBe(true);
  });

  it('a prize listing: bought while the prize lasts, then sold out without charging; limits show in the enriched view; history lists the purchase', async () => {
    const community = await givenCommunity(t, tenantId);
    const gems = await globalType(community);
    const prize = await t.get(PrizesService).create(tenantId, { name: 'Trophy', kind: 'physical', totalSupply: 1 });
    const listing = await listings.createListing(tenantId, {
      communityId: community,
      name: 'Trophy',
      kind: 'prize',
      prizeId: prize.id,
      price: [{ resourceTypeId: gems, amount: 10 }],
      perUserLimit: 1,
    });
    const [ann, bob] = [await givenUser(t, tenantId), await givenUser(t, tenantId)];
    await credit(ann, gems, 50);
    await credit(bob, gems, 50);

    const bought = await purchases.purchase(tenantId, ann, listing.id, { nonce: uniqueName('n') }, community);
    expect(bought).toMatchObject({ listingId: listing.id, kind: 'prize', prizeId: prize.id, replayed: false });
    // The prize has no supply left: bob is refused and not charged.
    expect(await domainErrorOf(purchases.purchase(tenantId, bob, listing.id, { nonce: uniqueName('n') }))).toBe('listing_sold_out');
    expect(await t.get(LedgerService).getBalance(t.dataSource.manager, tenantId, bob, gems)).toEqual({ balance: 50, earned: 50 });

    // The listing has no supply of its own, but its prize has none left: both views say so.
    const [annView] = (await store.listListings(tenantId, ann, community, true, PAGE)).items;
    expect(annView).toMatchObject({ purchasedCount: 1, canBuy: false, unavailableReasons: ['sold_out', 'limit_reached'] });
    const [bobView] = (await store.listListings(tenantId, bob, community, true, PAGE)).items;
    expect(bobView).toMatchObject({ purchasedCount: 0, canBuy: false, unavailableReasons: ['sold_out'] });

    const history = await purchaseLists.listPurchases(tenantId, ann, community, PAGE);
    expect(history).toMatchObject({ total: 1, items: [{ id: bought.id, listingName: 'Trophy' }] });
    const admin = await purchaseLists.adminPurchases(tenantId, { listingId: listing.id }, PAGE);
    expect(admin).toMatchObject({ total: 1, items: [{ userId: ann, requirementData: [] }] });
    expect((await purchaseLists.adminPurchases(tenantId, { userId: bob }, PAGE)).total).toBe(0);
  });
  it('a free item listing (no price) grants the item; a price given in order stays in order; an item listing naming a prize says itemId', async () => {
    const community = await givenCommunity(t, tenantId);
    const item = await givenItem(community);
    const [a, b] = [await globalType(community), await globalType(community)].sort();
    const wrong = await listings
      .createListing(tenantId, { communityId: community, name: 'X', kind: 'item', prizeId: item, price: [] })
      .catch((e: Error) => e.message);
    expect(wrong).toContain('itemId');
    const priced = await listings.createListing(tenantId, {
      communityId: community,
      name: 'Priced',
      kind: 'resource',
      resourceTypeId: a,
      price: [
        { resourceTypeId: a, amount: 1 },
        { resourceTypeId: b, amount: 2 },
      ],
    });
    expect(priced.price.map((p) => p.resourceTypeId)).toEqual([a, b]);

    const free = await listings.createListing(tenantId, {
      communityId: community,
      name: 'Free hat',
      kind: 'item',
      itemId: item,
      price: [],
    });
    const user = await givenUser(t, tenantId);
    expect(await purchases.purchase(tenantId, user, free.id, { nonce: uniqueName('n') })).toMatchObject({ kind: 'item', itemId: item });
    expect((await t.get(InventoryService).item(tenantId, community, item)).granted).toBe(1);
  });

  it('concurrent purchases that find every supply shard taken wait in one order: none deadlocks, only the supply runs out', async () => {
    const community = await givenCommunity(t, tenantId);
    const inventory = t.get(InventoryService);
    const slot = await inventory.createSlot(tenantId, { communityId: community, key: uniqueName('k'), name: 'Head' });
    const buyers = await Promise.all(Array.from({ length: 8 }, () => givenUser(t, tenantId)));
    const gems = await globalType(community);
    // Three units, eight buyers at once, so most purchases wait for a shard: in one half of the
    // rounds of a listing's supply (a resource listing: the general path, a transaction), in the
    // other of an item's (an item listing: the one-statement path, store_purchase_item). Both take
    // through the functions of the inventory's grants (medium inventory spec), whose deadlock these
    // purchases never showed here (they hold a shard briefly); this checks the supply sells exactly.
    for (let round = 0; round < 10; round++) {
      const listing = await (round % 2 === 0
        ? listings.createListing(tenantId, {
            communityId: community,
            name: uniqueName('Gems'),
            kind: 'resource',
            resourceTypeId: gems,
            price: [],
            totalSupply: 3,
          })
        : inventory
            .createItem(tenantId, { communityId: community, slotId: slot.id, name: uniqueName('Hat'), supply: 3 })
            .then((item) =>
              listings.createListing(tenantId, { communityId: community, name: item.name, kind: 'item', itemId: item.id, price: [] }),
            ));
      const outcomes = await Promise.all(
        buyers.map((buyer) => outcomeOf(purchases.purchase(tenantId, buyer, listing.id, { nonce: uniqueName('n') }), 'bought')),
      );
      expect(outcomes.sort()).toEqual([...Array(3).fill('bought'), ...Array(5).fill('listing_sold_out')]);
    }
  });
  it('migration SupplyTakeFunctions: down puts the takes back inline in store_purchase_item and drops the functions; up brings them back', async () => {
    const state = async (run: (sql: string) => Promise<{ source: string; item: boolean; listing: boolean }[]>) => {
      const [r] = await run(
        `SELECT p.prosrc AS source, to_regprocedure('cgs_take_item_supply(uuid,int,int)') IS NOT NULL AS item,
                to_regprocedure('cgs_take_listing_unit(uuid,int)') IS NOT NULL AS listing
           FROM pg_proc p WHERE p.proname = 'store_purchase_item'`,
      );
      return {
        calls: /cgs_take_item_supply\(l\.item_id/.test(r.source) && /cgs_take_listing_unit\(p_listing/.test(r.source),
        skipsInline: r.source.includes('SKIP LOCKED'),
        item: r.item,
        listing: r.listing,
      };
    };
    const migrated = { calls: true, skipsInline: false, item: true, listing: true };
    expect(await state((sql) => t.dataSource.query(sql))).toEqual(migrated);

    await inRolledBackTransaction(t.dataSource, async (qr) => {
      const migration = new SupplyTakeFunctions1795717161396();
      await migration.down(qr);
      expect(await state((sql) => qr.query(sql))).toEqual({ calls: false, skipsInline: true, item: false, listing: false });
      await migration.up(qr);
      expect(await state((sql) => qr.query(sql))).toEqual(migrated);
    });
  });
});
