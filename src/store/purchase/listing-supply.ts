import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainError } from '../../common/errors/domain-error.js';
import { SummaryFolds } from '../../database/summary-folds.js';
import type { StoreListing } from '../entities/store-listing.entity.js';
import { StoreListingRepository } from '../store-listing.repository.js';
import { StorePurchaseRepository } from '../store-purchase.repository.js';
import { StoreErrors } from '../store.errors.js';
import { PurchaseChecks } from './purchase-checks.js';

/** A listing's units: taken by a purchase on the general path, and its `sold` summary folded after the commit. */
@Injectable()
export class ListingSupply {
  constructor(
    private readonly purchases: StorePurchaseRepository,
    private readonly checks: PurchaseChecks,
    private readonly folds: SummaryFolds,
    private readonly listings: StoreListingRepository,
  ) {}

  /**
   * Step 7: the supply, in one statement just before the commit (the item's, then the listing's):
   * sharded, so concurrent purchases of the listing update different rows.
   */
  async take(tx: EntityManager, tenantId: string, listing: StoreListing, now: Date): Promise<void> {
    const sale = await this.purchases.sell(
      listing.id,
      now,
      listing.kind === 'item' ? { itemId: listing.itemId!, quantity: listing.quantity } : null,
      tx,
    );
    if (!sale.open) await this.checks.explainUnavailable(tx, tenantId, listing.id, now);
    if (!sale.supplied) throw new DomainError(StoreErrors.listing_sold_out, `"${listing.name}" is sold out: no supply left of its item`);
    if (!sale.sold) throw new DomainError(StoreErrors.listing_sold_out, `"${listing.name}" is sold out`);
  }

  /** The listing's `sold` summary catches up after the commit (the item's: the inventory's event). */
  soldAfterCommit(listingId: string): void {
    this.folds.schedule(`listing:${listingId}`, () => this.listings.foldSold(listingId));
  }
}
