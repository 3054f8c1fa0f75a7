import type { DataSource, EntityManager } from 'typeorm';
import type { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import type { HotRows } from '../../database/hot-rows.js';
import type { StoreListing } from '../entities/store-listing.entity.js';
import type { StorePurchase } from '../entities/store-purchase.entity.js';
import type { ItemPurchaseOutcome, StorePurchaseRepository } from '../store-purchase.repository.js';
import type { ListingSupply } from './listing-supply.js';
import { OneStatementPurchase } from './one-statement-purchase.js';
import type { PurchaseChecks } from './purchase-checks.js';
import type { PurchaseEvents } from './purchase-events.js';
import { PurchaseReplays } from './purchase-replays.js';

const NOW = new Date('2030-06-01T12:00:00Z');
const TENANT = '00000000-0000-4000-8000-00000000000a';
const LISTING = '11111111-1111-4111-8111-111111111111';
const GEMS = '22222222-2222-4222-8222-222222222222';
const COMMUNITY = '33333333-3333-4333-8333-333333333333';
const ITEM = '44444444-4444-4444-8444-444444444444';

const listing = {
  id: LISTING,
  communityId: COMMUNITY,
  name: 'Pirate hat',
  kind: 'item',
  itemId: ITEM,
  prizeId: null,
  resourceTypeId: null,
  quantity: 1,
  price: [{ resourceTypeId: GEMS, amount: 10 }],
  perUserLimit: 2,
  requirementIds: [],
  active: true,
} as unknown as StoreListing;
const target = { listing, item: { id: ITEM, name: 'Hat', slotId: 'head', communityId: COMMUNITY } };

/** The one-statement path, the statement's outcome given; what it was asked to do is recorded. */
function world(outcome: ItemPurchaseOutcome, first: StorePurchase | null = null) {
  const steps: string[] = [];
  const manager = {} as EntityManager;
  const purchases = {
    purchaseItem: (_tenantId: string, input: { nonce: string; events?: unknown[] }) => (
      steps.push(`statement:${input.nonce}:${input.events?.length ?? 'in-tx'}`),
      Promise.resolve(outcome)
    ),
    findByNonce: () => (steps.push('findByNonce'), Promise.resolve(first)),
  } as unknown as StorePurchaseRepository;
  const events = {
    handledBy: ['outbox'],
    notices: () => [],
    ownOutbox: () => false,
    inTransactionHandlers: () => false,
    announce: () => (steps.push('announce'), Promise.resolve()),
  } as unknown as PurchaseEvents;
  const supply = { soldAfterCommit: (id: string) => steps.push(`fold:${id}`) } as unknown as ListingSupply;
  const checks = {} as PurchaseChecks;
  const hotRows = { run: (_key: string, work: () => Promise<unknown>) => work() } as unknown as HotRows;
  const clock = { now: () => new Date(NOW) } as Clock;
  const service = new OneStatementPurchase(
    { manager } as unknown as DataSource,
    purchases,
    hotRows,
    clock,
    events,
    new PurchaseReplays(purchases),
    checks,
    supply,
  );
  return { service, steps };
}

describe('OneStatementPurchase: the item purchase in one statement', () => {
  it('answers what the statement bought, announces it and folds the sold summary after the commit', async () => {
    const { service, steps } = world({
      status: 'bought',
      createdAt: NOW,
      communityId: COMMUNITY,
      itemId: ITEM,
      quantity: 1,
      price: [{ resourceTypeId: GEMS, amount: 10 }],
      grantId: 'g1',
      debits: [],
      deliveries: 0,
    });
    const result = await service.purchase(TENANT, 'u1', target, 'n-1', 'fp');
    expect(result).toMatchObject({ listingId: LISTING, kind: 'item', itemId: ITEM, nonce: 'n-1', createdAt: NOW, replayed: false });
    expect(steps).toEqual(['statement:n-1:0', 'announce', `fold:${LISTING}`]);
  });

  it('answers a nonce already used with the first purchase, nothing bought again', async () => {
    const first = {
      id: 'first-purchase',
      listingId: LISTING,
      communityId: COMMUNITY,
      nonce: 'n-1',
      fingerprint: 'fp',
      kind: 'item',
      itemId: ITEM,
      prizeId: null,
      resourceTypeId: null,
      quantity: 1,
      price: [{ resourceTypeId: GEMS, amount: 8 }],
      createdAt: new Date('2030-05-01T00:00:00Z'),
      listing: { name: 'Pirate hat' },
    } as unknown as StorePurchase;
    const { service, steps } = world({ status: 'replay' }, first);
    expect(await service.purchase(TENANT, 'u1', target, 'n-1', 'fp')).toMatchObject({
      id: 'first-purchase',
      price: [{ resourceTypeId: GEMS, amount: 8 }],
      replayed: true,
    });
    expect(steps).toEqual(['statement:n-1:0', 'findByNonce']);
  });

  it('hands a listing changed since it was read (another price, kind or item) back to the general path', async () => {
    const { service, steps } = world({ status: 'refused', refusal: 'changed', details: {} });
    expect(await service.purchase(TENANT, 'u1', target, 'n-1', 'fp')).toBeNull();
    expect(steps).toEqual(['statement:n-1:0']);
  });

  it('words a refusal as the general path does', async () => {
    const { service } = world({ status: 'refused', refusal: 'purchase_limit_reached', details: { perUserLimit: 2 } });
    const e = await service.purchase(TENANT, 'u1', target, 'n-1', 'fp').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(DomainError);
    expect(e).toMatchObject({
      definition: { error: 'purchase_limit_reached' },
      message: '"Pirate hat" can be bought 2 time(s) per user',
      details: { perUserLimit: 2 },
    });
  });
});
