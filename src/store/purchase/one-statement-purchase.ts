import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { HotRows } from '../../database/hot-rows.js';
import { InventoryErrors } from '../../inventory/inventory.errors.js';
import { ResourceErrors } from '../../resources/resources.errors.js';
import type { PurchaseResultDto } from '../dto/purchase.dto.js';
import type { StoreListing } from '../entities/store-listing.entity.js';
import type { PurchaseTarget } from '../store-catalog.read-model.js';
import { type ItemPurchase, type ItemPurchaseOutcome, StorePurchaseRepository } from '../store-purchase.repository.js';
import { StoreErrors } from '../store.errors.js';
import { toPurchaseDto } from '../store.mappers.js';
import { ListingSupply } from './listing-supply.js';
import { PurchaseChecks } from './purchase-checks.js';
import { type ItemSale, PurchaseEvents } from './purchase-events.js';
import { PurchaseReplays } from './purchase-replays.js';

/** A refusal of the one-statement purchase inside a transaction: rolls it back, then is answered. */
class Refused extends Error {
  constructor(readonly outcome: ItemPurchaseOutcome) {
    super('purchase refused');
  }
}

/**
 * Steps 1-7 for an item listing in one statement, the database function `store_purchase_item`
 * (`StorePurchaseRepository.purchaseItem`), with the rows, checks and lock order of the general path.
 */
@Injectable()
export class OneStatementPurchase {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly purchases: StorePurchaseRepository,
    private readonly hotRows: HotRows,
    private readonly clock: Clock,
    private readonly events: PurchaseEvents,
    private readonly replays: PurchaseReplays,
    private readonly checks: PurchaseChecks,
    private readonly supply: ListingSupply,
  ) {}

  /**
   * The purchase of `target` (an item listing `PurchaseChecks.sellsInOneStatement` accepted); null
   * when the listing changed since it was read, into something it does not sell or to another
   * price (then the general path runs).
   */
  async purchase(
    tenantId: string,
    userId: string,
    { listing, item }: PurchaseTarget,
    nonce: string,
    fingerprint: string,
  ): Promise<PurchaseResultDto | null> {
    const purchaseId = randomUUID();
    const now = this.clock.now();
    const sale: ItemSale = { tenantId, userId, purchaseId, listing, item: item! };
    const input: ItemPurchase = {
      purchaseId,
      userId,
      listingId: listing.id,
      nonce,
      fingerprint,
      now,
      price: listing.price,
      notifications: this.events.notices(sale),
    };
    const ownOutbox = this.events.ownOutbox();
    const outcome = await this.hotRows.run(`listing:${listing.id}`, () => this.run(sale, input, ownOutbox));

    if (outcome.status === 'bought') {
      this.supply.soldAfterCommit(listing.id);
      return {
        ...toPurchaseDto(
          {
            id: purchaseId,
            listingId: listing.id,
            communityId: outcome.communityId,
            nonce,
            kind: 'item',
            itemId: outcome.itemId,
            prizeId: null,
            resourceTypeId: null,
            quantity: outcome.quantity,
            price: outcome.price,
            createdAt: outcome.createdAt,
          },
          listing.name,
        ),
        replayed: false,
      };
    }
    if (outcome.status === 'replay')
      return this.replays.ofTakenNonce(this.dataSource.manager, tenantId, userId, nonce, fingerprint, listing.id);
    return this.refused(outcome, tenantId, listing, now);
  }

  /**
   * One statement that commits on its own, unless another handler must write in the purchase's
   * transaction (DomainEvents.inTransaction): then the statement and the handlers run in one.
   */
  private async run(sale: ItemSale, input: ItemPurchase, ownOutbox: boolean): Promise<ItemPurchaseOutcome> {
    if (!this.events.inTransactionHandlers() || ownOutbox) {
      const events = ownOutbox ? this.events.expectedRecords(sale) : [];
      const r = await this.purchases.purchaseItem(sale.tenantId, { ...input, events });
      if (r.status !== 'bought') return r;
      // The statement wrote the events: it bought at the price they were built from (another
      // price is refused as `changed`), so nothing of the purchase is left to write after its commit.
      await this.events.announce(this.dataSource.manager, sale, r, ownOutbox ? { handledBy: this.events.handledBy } : undefined);
      if (ownOutbox) this.events.committed(sale, r, events);
      return r;
    }
    try {
      return await this.dataSource.transaction(async (tx) => {
        const r = await this.purchases.purchaseItem(sale.tenantId, input, tx);
        // The failed statement aborted the transaction: roll it back, answer the refusal.
        if (r.status === 'refused') throw new Refused(r);
        if (r.status === 'bought') await this.events.announce(tx, sale, r);
        return r;
      });
    } catch (err) {
      if (err instanceof Refused) return err.outcome;
      throw err;
    }
  }

  /** The statement's refusal as the general path words it; null when the general path is to run instead. */
  private refused(
    outcome: ItemPurchaseOutcome & { status: 'refused' },
    tenantId: string,
    listing: StoreListing,
    now: Date,
  ): Promise<never> | null {
    const d = outcome.details;
    switch (outcome.refusal) {
      case 'listing_not_found':
      case 'changed':
        return null;
      case 'closed':
        return this.checks.explainUnavailable(this.dataSource.manager, tenantId, listing.id, now);
      case 'insufficient_balance':
        throw new DomainError(
          ResourceErrors.insufficient_balance,
          `Not enough of resource type ${String(d.resourceTypeId)}: the price is ${String(d.required)}, the balance ${Number(d.balance)}`,
          { required: Number(d.required), balance: Number(d.balance), resourceTypeId: d.resourceTypeId },
        );
      case 'resource_type_not_found':
        throw new DomainError(ResourceErrors.resource_type_not_found, `No resource type ${String(d.resourceTypeId)} in this tenant`);
      case 'purchase_limit_reached':
        throw new DomainError(
          StoreErrors.purchase_limit_reached,
          `"${listing.name}" can be bought ${listing.perUserLimit} time(s) per user`,
          {
            perUserLimit: d.perUserLimit,
          },
        );
      case 'item_not_found':
        throw new DomainError(InventoryErrors.item_not_found, `No item ${listing.itemId} in this tenant`);
      case 'item_sold_out':
        throw new DomainError(StoreErrors.listing_sold_out, `"${listing.name}" is sold out: no supply left of its item`);
      case 'sold_out':
        throw new DomainError(StoreErrors.listing_sold_out, `"${listing.name}" is sold out`);
    }
  }
}
