import type { Clock } from '../../common/clock/clock.js';
import type { CommunitiesService } from '../../communities/communities.service.js';
import { purchaseFingerprint } from '../../requirements/requirement-rules.js';
import type { PurchaseBodyDto, PurchaseResultDto } from '../dto/purchase.dto.js';
import type { StoreListing } from '../entities/store-listing.entity.js';
import type { StoreCaches } from '../store.caches.js';
import type { PurchaseTarget } from '../store-catalog.read-model.js';
import type { OneStatementPurchase } from './one-statement-purchase.js';
import { PurchaseChecks } from './purchase-checks.js';
import { StorePurchaseService } from './store-purchase.service.js';
import type { TransactionalPurchase } from './transactional-purchase.js';

const NOW = new Date('2030-06-01T12:00:00Z');
const TENANT = '00000000-0000-4000-8000-00000000000a';
const LISTING = '11111111-1111-4111-8111-111111111111';
const GEMS = '22222222-2222-4222-8222-222222222222';
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
    price: [{ resourceTypeId: GEMS, amount: 10 }],
    totalSupply: null,
    soldTotal: 0,
    perUserLimit: null,
    startsAt: null,
    endsAt: null,
    requirementIds: [],
    active: true,
    ...over,
  }) as StoreListing;

const answer = (id: string): PurchaseResultDto => ({ id, replayed: false }) as PurchaseResultDto;

/** The facade with its two paths recorded; the checks are the real ones, on a stopped clock. */
function facade(target: PurchaseTarget | null, fast: PurchaseResultDto | null = answer('fast')) {
  const calls: { path: 'fast' | 'general' | 'cache'; args: unknown[] }[] = [];
  const caches = {
    purchaseTarget: (...args: unknown[]) => (calls.push({ path: 'cache', args }), Promise.resolve(target)),
  } as unknown as StoreCaches;
  const communities = {
    resolve: (_tenantId: string, ref: string) => Promise.resolve({ id: ref === 'home' ? COMMUNITY : 'elsewhere' }),
  } as unknown as CommunitiesService;
  const checks = new PurchaseChecks(null as never, communities, { now: () => new Date(NOW) } as Clock, null as never, null as never);
  const oneStatement = {
    purchase: (...args: unknown[]) => (calls.push({ path: 'fast', args }), Promise.resolve(fast)),
  } as unknown as OneStatementPurchase;
  const general = {
    purchase: (...args: unknown[]) => (calls.push({ path: 'general', args }), Promise.resolve(answer('general'))),
  } as unknown as TransactionalPurchase;
  const paths = () => calls.map((c) => c.path);
  return { service: new StorePurchaseService(caches, checks, oneStatement, general), calls, paths };
}

const item = { id: '44444444-4444-4444-8444-444444444444', name: 'Hat', slotId: 'head', communityId: COMMUNITY };
const body = (over: Partial<PurchaseBodyDto> = {}): PurchaseBodyDto => ({ nonce: 'n-1', ...over });

describe('StorePurchaseService: which path buys', () => {
  it('sells an item listing without requirements, on sale, in one statement', async () => {
    const { service, calls, paths } = facade({ listing: listingOf(), item });
    const result = await service.purchase(TENANT, 'u1', LISTING.toUpperCase(), body());
    expect(result.id).toBe('fast');
    expect(paths()).toEqual(['cache', 'fast']);
    expect(calls[0].args).toEqual([TENANT, LISTING]);
    expect(calls[1].args).toEqual([TENANT, 'u1', { listing: listingOf(), item }, 'n-1', purchaseFingerprint(LISTING, [])]);
  });

  it('takes the general path when the one statement finds the listing changed', async () => {
    const { service, calls, paths } = facade({ listing: listingOf(), item }, null);
    const result = await service.purchase(TENANT, 'u1', LISTING, body(), 'home');
    expect(result.id).toBe('general');
    expect(paths()).toEqual(['cache', 'fast', 'general']);
    expect(calls[2].args).toEqual([TENANT, 'u1', LISTING, body(), 'home', purchaseFingerprint(LISTING, [])]);
  });

  it('takes the general path, without reading the cache, for requirement data or a listing named by something else than its id', async () => {
    const withData = facade({ listing: listingOf(), item });
    const data = body({ requirementData: [{ requirementId: 'address', data: { city: 'Oslo' } }] });
    await withData.service.purchase(TENANT, 'u1', LISTING, data);
    expect(withData.paths()).toEqual(['general']);
    expect(withData.calls[0].args[5]).toBe(purchaseFingerprint(LISTING, data.requirementData!));

    const bySlug = facade({ listing: listingOf(), item });
    await bySlug.service.purchase(TENANT, 'u1', 'pirate-hat', body());
    expect(bySlug.paths()).toEqual(['general']);
  });

  it.each<[string, PurchaseTarget | null, string | undefined]>([
    ['a listing the cache does not know', null, undefined],
    ['a listing with requirements', { listing: listingOf({ requirementIds: ['r1'] }), item }, undefined],
    ['a prize listing', { listing: listingOf({ kind: 'prize', itemId: null, prizeId: 'p1' }), item: null }, undefined],
    ['a withdrawn listing', { listing: listingOf({ active: false }), item }, undefined],
    ['a listing known to be sold out', { listing: listingOf({ totalSupply: 3, soldTotal: 3 }), item }, undefined],
    ['a listing whose sale has not started', { listing: listingOf({ startsAt: new Date(NOW.getTime() + 1) }), item }, undefined],
    ['a listing whose sale ended', { listing: listingOf({ endsAt: NOW }), item }, undefined],
    ['a listing of another community than containerId', { listing: listingOf(), item }, 'other'],
  ])('takes the general path (which words the error) for %s', async (_, target, containerId) => {
    const { service, paths } = facade(target);
    expect((await service.purchase(TENANT, 'u1', LISTING, body(), containerId)).id).toBe('general');
    expect(paths()).toEqual(['cache', 'general']);
  });

  it('takes the general path when the price changed since the client read it, and the one statement when it did not', async () => {
    const changed = facade({ listing: listingOf(), item });
    await changed.service.purchase(TENANT, 'u1', LISTING, body({ expectedPrice: [{ resourceTypeId: GEMS, amount: 9 }] }));
    expect(changed.paths()).toEqual(['cache', 'general']);

    const same = facade({ listing: listingOf(), item });
    await same.service.purchase(TENANT, 'u1', LISTING, body({ expectedPrice: [{ resourceTypeId: GEMS.toUpperCase(), amount: 10 }] }));
    expect(same.paths()).toEqual(['cache', 'fast']);
  });

  it('runs a purchase that lost a deadlock again, and answers the second run', async () => {
    const { service, calls } = facade(null);
    let runs = 0;
    (service as unknown as { general: { purchase: () => Promise<PurchaseResultDto> } }).general.purchase = () =>
      ++runs === 1 ? Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' })) : Promise.resolve(answer('second'));
    expect((await service.purchase(TENANT, 'u1', LISTING, body())).id).toBe('second');
    expect(runs).toBe(2);
    expect(calls.filter((c) => c.path === 'cache')).toHaveLength(2);
  });
});
