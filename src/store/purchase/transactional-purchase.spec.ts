import type { DataSource, EntityManager } from 'typeorm';
import type { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import type { CommunitiesService } from '../../communities/communities.service.js';
import type { HotRows } from '../../database/hot-rows.js';
import type { SummaryFolds } from '../../database/summary-folds.js';
import type { RequirementsService } from '../../requirements/requirements.service.js';
import type { PurchaseBodyDto } from '../dto/purchase.dto.js';
import type { StoreListing } from '../entities/store-listing.entity.js';
import type { StorePurchase } from '../entities/store-purchase.entity.js';
import type { StoreCatalogReadModel } from '../store-catalog.read-model.js';
import type { StoreListingRepository } from '../store-listing.repository.js';
import type { StoreListingsService } from '../store-listings.service.js';
import type { StorePurchaseRepository } from '../store-purchase.repository.js';
import { ListingSupply } from './listing-supply.js';
import { PurchaseChecks } from './purchase-checks.js';
import type { PurchaseEvents } from './purchase-events.js';
import { PurchaseReplays } from './purchase-replays.js';
import type { PurchaseSettlement } from './purchase-settlement.js';
import { TransactionalPurchase } from './transactional-purchase.js';

const NOW = new Date('2030-06-01T12:00:00Z');
const CREATED = new Date('2030-06-01T12:00:01Z');
const TENANT = '00000000-0000-4000-8000-00000000000a';
const LISTING = '11111111-1111-4111-8111-111111111111';
const GEMS = '22222222-2222-4222-8222-222222222222';
const GOLD = '55555555-5555-4555-8555-555555555555';
const COMMUNITY = '33333333-3333-4333-8333-333333333333';

const listingOf = (over: Partial<StoreListing> = {}): StoreListing =>
  ({
    id: LISTING,
    communityId: COMMUNITY,
    name: 'Pirate hat',
    kind: 'item',
    itemId: '44444444-4444-4444-8444-444444444444',
    prizeId: null,
    resourceTypeId: null,
    quantity: 1,
    price: [
      { resourceTypeId: GOLD, amount: 2 },
      { resourceTypeId: GEMS, amount: 10 },
    ],
    totalSupply: null,
    soldTotal: 0,
    perUserLimit: null,
    startsAt: null,
    endsAt: null,
    requirementIds: [],
    active: true,
    ...over,
  }) as StoreListing;

/** The purchase a nonce already made. */
const firstPurchase = (fingerprint: string) =>
  ({
    id: 'first-purchase',
    listingId: LISTING,
    communityId: COMMUNITY,
    nonce: 'n-1',
    fingerprint,
    kind: 'item',
    itemId: '44444444-4444-4444-8444-444444444444',
    prizeId: null,
    resourceTypeId: null,
    quantity: 1,
    price: [{ resourceTypeId: GEMS, amount: 7 }],
    createdAt: new Date('2030-05-01T00:00:00Z'),
    listing: { name: 'Old name' },
  }) as unknown as StorePurchase;

/**
 * The general path with its collaborators as plain objects that record what they are asked, in
 * order; the checks, replays and supply step are the real ones.
 */
function world(listing: StoreListing, opts: { byNonce?: (StorePurchase | null)[]; claimed?: Date | null; sale?: Partial<Sale> } = {}) {
  const steps: string[] = [];
  const tx = { tx: true } as unknown as EntityManager;
  const manager = { manager: true } as unknown as EntityManager;
  const byNonce = [...(opts.byNonce ?? [null])];
  const purchases = {
    findByNonce: (...args: unknown[]) => (
      steps.push(`findByNonce:${args[3] === tx ? 'tx' : 'manager'}`),
      Promise.resolve(byNonce.shift() ?? null)
    ),
    claimNonce: () => (steps.push('claimNonce'), Promise.resolve(opts.claimed === undefined ? CREATED : opts.claimed)),
    countPurchase: () => (steps.push('countPurchase'), Promise.resolve(true)),
    sell: () => (steps.push('sell'), Promise.resolve({ open: true, supplied: true, sold: true, ...opts.sale })),
  } as unknown as StorePurchaseRepository;
  const listings = { findListing: () => (steps.push('findListing'), Promise.resolve(listing)) } as unknown as StoreListingsService;
  const communities = { resolve: () => Promise.resolve({ id: COMMUNITY }) } as unknown as CommunitiesService;
  const requirements = {
    findMany: () => (steps.push('requirements'), Promise.resolve([])),
    savedData: () => Promise.resolve(new Map()),
    resolveData: () => [],
    assertConditions: () => (steps.push('conditions'), Promise.resolve()),
  } as unknown as RequirementsService;
  const clock = { now: () => new Date(NOW) } as Clock;
  const checks = new PurchaseChecks(listings, communities, clock, {} as StoreCatalogReadModel, requirements);
  const record =
    (name: string) =>
    (..._: unknown[]) => (steps.push(name), Promise.resolve());
  const settlement = {
    sealData: record('sealData'),
    lockBalances: record('lockBalances'),
    charge: (_tx: unknown, _t: unknown, _u: unknown, price: StoreListing['price']) => (
      steps.push(`charge:${price.length}`),
      Promise.resolve()
    ),
    saveRequested: record('saveRequested'),
    grant: record('grant'),
  } as unknown as PurchaseSettlement;
  const events = { notifyBought: record('notifyBought'), completed: record('completed') } as unknown as PurchaseEvents;
  const folds = { schedule: (key: string) => steps.push(`fold:${key}`) } as unknown as SummaryFolds;
  const supply = new ListingSupply(purchases, checks, folds, {} as StoreListingRepository);
  const dataSource = {
    manager,
    transaction: (work: (em: EntityManager) => Promise<unknown>) => (steps.push('begin'), work(tx)),
  } as unknown as DataSource;
  const hotRows = { run: (_key: string, work: () => Promise<unknown>) => work() } as unknown as HotRows;
  const service = new TransactionalPurchase(
    dataSource,
    purchases,
    hotRows,
    checks,
    new PurchaseReplays(purchases),
    settlement,
    events,
    supply,
  );
  return { service, steps };
}
type Sale = { open: boolean; supplied: boolean; sold: boolean };

const body = (over: Partial<PurchaseBodyDto> = {}): PurchaseBodyDto => ({ nonce: 'n-1', ...over });
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof DomainError ? { error: e.definition.error, message: e.message, details: e.details } : e),
  );

describe('TransactionalPurchase: the general path', () => {
  it('buys in the fixed order: nonce, balances, conditions, limit, price, data, notification, grant, supply, then folds the summary', async () => {
    const { service, steps } = world(listingOf());
    const result = await service.purchase(TENANT, 'u1', LISTING, body(), undefined, 'fp');
    expect(result).toMatchObject({ listingId: LISTING, listingName: 'Pirate hat', nonce: 'n-1', createdAt: CREATED, replayed: false });
    expect(result.price).toEqual([
      { resourceTypeId: GOLD, amount: 2 },
      { resourceTypeId: GEMS, amount: 10 },
    ]);
    expect(steps).toEqual([
      'findByNonce:manager',
      'findListing',
      'requirements',
      'begin',
      'claimNonce',
      'lockBalances',
      'conditions',
      'countPurchase',
      'charge:2',
      'saveRequested',
      'notifyBought',
      'grant',
      'sell',
      'completed',
      `fold:listing:${LISTING}`,
    ]);
  });

  it('answers a replayed nonce with the first purchase, before reading the listing or charging anything', async () => {
    // The listing has since closed and changed its price: the first answer stands.
    const { service, steps } = world(listingOf({ active: false }), { byNonce: [firstPurchase('fp')] });
    const result = await service.purchase(TENANT, 'u1', LISTING, body({ expectedPrice: [] }), undefined, 'fp');
    expect(result).toMatchObject({
      id: 'first-purchase',
      listingName: 'Old name',
      createdAt: firstPurchase('fp').createdAt,
      replayed: true,
    });
    expect(result.price).toEqual([{ resourceTypeId: GEMS, amount: 7 }]);
    expect(steps).toEqual(['findByNonce:manager']);
  });

  it('refuses a nonce reused with other requirement data (409 nonce_reused), charging nothing', async () => {
    const { service, steps } = world(listingOf(), { byNonce: [firstPurchase('other-fp')] });
    expect(await errorOf(service.purchase(TENANT, 'u1', LISTING, body(), undefined, 'fp'))).toEqual({
      error: 'nonce_reused',
      message: 'This nonce already bought this listing with other requirement data',
      details: { purchaseId: 'first-purchase' },
    });
    expect(steps).toEqual(['findByNonce:manager']);
  });

  it('answers the purchase that took the nonce while this one ran, from inside its transaction, without charging', async () => {
    const { service, steps } = world(listingOf(), { byNonce: [null, firstPurchase('fp')], claimed: null });
    expect(await service.purchase(TENANT, 'u1', LISTING, body(), undefined, 'fp')).toMatchObject({ id: 'first-purchase', replayed: true });
    expect(steps).toEqual(['findByNonce:manager', 'findListing', 'requirements', 'begin', 'claimNonce', 'findByNonce:tx']);
  });

  it('refuses a price changed since the client read it (409 price_changed with the price now), charging nothing', async () => {
    const { service, steps } = world(listingOf());
    const expectedPrice = [{ resourceTypeId: GEMS, amount: 9 }];
    expect(await errorOf(service.purchase(TENANT, 'u1', LISTING, body({ expectedPrice }), undefined, 'fp'))).toEqual({
      error: 'price_changed',
      message: '"Pirate hat" costs another price than expectedPrice now: nothing was charged',
      details: {
        price: [
          { resourceTypeId: GOLD, amount: 2 },
          { resourceTypeId: GEMS, amount: 10 },
        ],
      },
    });
    expect(steps).toEqual(['findByNonce:manager', 'findListing']);
  });

  it('charges the price the client read, given in another order and case', async () => {
    const { service, steps } = world(listingOf());
    const expectedPrice = [
      { resourceTypeId: GEMS.toUpperCase(), amount: 10 },
      { resourceTypeId: GOLD, amount: 2 },
    ];
    expect((await service.purchase(TENANT, 'u1', LISTING, body({ expectedPrice }), undefined, 'fp')).replayed).toBe(false);
    expect(steps).toContain('charge:2');
  });

  it.each([
    ['not started', { startsAt: new Date('2030-06-01T12:00:01Z') }, '"Pirate hat" is on sale from 2030-06-01T12:00:01.000Z'],
    ['ended', { endsAt: NOW }, '"Pirate hat" was on sale until 2030-06-01T12:00:00.000Z'],
  ])('refuses a listing whose sale has %s (409 listing_not_available), charging nothing', async (_, window, message) => {
    const { service, steps } = world(listingOf(window));
    const e = await errorOf(service.purchase(TENANT, 'u1', LISTING, body(), undefined, 'fp'));
    expect(e).toEqual({ error: 'listing_not_available', message, details: window });
    expect(steps).toEqual(['findByNonce:manager', 'findListing']);
  });

  it('says which when the supply step finds the listing closed since it was read, and folds nothing', async () => {
    let reads = 0;
    const { service, steps } = world(listingOf(), { sale: { open: false } });
    // The second read of the listing (in the transaction) finds its sale ended.
    const checks = (service as unknown as { checks: { listings: { findListing: () => Promise<StoreListing> } } }).checks;
    checks.listings.findListing = () => Promise.resolve(++reads === 1 ? listingOf() : listingOf({ endsAt: NOW }));
    expect(await errorOf(service.purchase(TENANT, 'u1', LISTING, body(), undefined, 'fp'))).toMatchObject({
      error: 'listing_not_available',
      details: { endsAt: NOW },
    });
    expect(steps.at(-1)).toBe('sell');
    expect(reads).toBe(2);
  });
});
