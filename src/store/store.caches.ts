import { Injectable } from '@nestjs/common';
import { CacheFactory } from '../common/cache/cache-factory.js';
import type { ReadCache } from '../common/cache/read-cache.js';
import { StoreCatalogReadModel, type PurchaseTarget } from './store-catalog.read-model.js';

/** The store's read caches, declared in one place; the listing writes drop them (`StoreListingsService`). */
@Injectable()
export class StoreCaches {
  /**
   * What a purchase reads first, per listing (READ_CACHE_MS; the tenant's listing writes drop it at
   * their commit, in every process through the cache bus). Its units sold are a lower bound (they
   * only grow between supply changes, which drop it). Safe to be stale: the purchase's statement
   * reads the listing again under its lock and refuses another price, kind, item, requirement,
   * window or a sold-out supply; a listing not found here takes the general path, which reads it.
   */
  readonly targets: ReadCache<{ tenantId: string; listingId: string }, { target: PurchaseTarget | null }>;

  constructor(caches: CacheFactory, catalog: StoreCatalogReadModel) {
    this.targets = caches.create({
      name: 'purchase targets',
      load: async ({ tenantId, listingId }) => ({ target: await catalog.purchaseTarget(tenantId, listingId) }),
    });
  }

  /** The listing a purchase is for, as `StoreCatalogReadModel.purchaseTarget` read it at most READ_CACHE_MS ago. */
  async purchaseTarget(tenantId: string, listingId: string): Promise<PurchaseTarget | null> {
    return (await this.targets.get(tenantId, listingId, { tenantId, listingId })).target;
  }
}
