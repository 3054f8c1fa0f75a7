import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainError } from '../../common/errors/domain-error.js';
import { EncryptionService } from '../../crypto/encryption.service.js';
import { InventoryErrors } from '../../inventory/inventory.errors.js';
import { InventoryService } from '../../inventory/inventory.service.js';
import { PrizeErrors } from '../../prizes/prizes.errors.js';
import { PrizesService } from '../../prizes/prizes.service.js';
import { RequirementsService, type ResolvedRequirementData } from '../../requirements/requirements.service.js';
import { LedgerService } from '../../resources/ledger.service.js';
import { ResourceErrors } from '../../resources/resources.errors.js';
import type { PriceComponent, StoreListing } from '../entities/store-listing.entity.js';
import { StoreErrors } from '../store.errors.js';
import { purchaseDataContext } from '../store.mappers.js';

const isDomain = (e: unknown, def: { error: string }) => e instanceof DomainError && e.definition.error === def.error;

/**
 * The buyer's side of a purchase on the general path: the requirement data sealed and saved, the
 * balances locked and debited, and what the listing grants.
 */
@Injectable()
export class PurchaseSettlement {
  constructor(
    private readonly ledger: LedgerService,
    private readonly inventory: InventoryService,
    private readonly prizes: PrizesService,
    private readonly requirements: RequirementsService,
    private readonly encryption: EncryptionService,
  ) {}

  /** The requirement data the purchase records, encrypted for its row. */
  sealData(resolved: ResolvedRequirementData[], purchaseId: string): Promise<string> {
    return this.encryption.encrypt(
      JSON.stringify(resolved.map((r) => ({ requirementId: r.requirement.id, data: r.data }))),
      purchaseDataContext(purchaseId),
    );
  }

  /**
   * Every balance row this purchase will change, locked now in resource-type-id order: two
   * purchases of one user that pay in each other's resource cannot deadlock.
   */
  lockBalances(tx: EntityManager, tenantId: string, userId: string, listing: StoreListing): Promise<void> {
    return this.ledger.lockBalances(tx, tenantId, userId, [
      ...listing.price.map((p) => p.resourceTypeId),
      ...(listing.kind === 'resource' && listing.resourceTypeId ? [listing.resourceTypeId] : []),
    ]);
  }

  /** Step 4: the price, in resource-type-id order (the ledger never goes below zero). */
  async charge(tx: EntityManager, tenantId: string, userId: string, price: PriceComponent[], purchaseId: string): Promise<void> {
    for (const p of [...price].sort((a, b) => (a.resourceTypeId < b.resourceTypeId ? -1 : 1))) {
      try {
        await this.ledger.debit(tx, {
          tenantId,
          userId,
          resourceTypeId: p.resourceTypeId,
          amount: Number(p.amount),
          reason: 'store_purchase',
          reference: purchaseId,
        });
      } catch (e) {
        if (!isDomain(e, ResourceErrors.insufficient_balance)) throw e;
        const details = (e as DomainError).details ?? {};
        throw new DomainError(
          ResourceErrors.insufficient_balance,
          `Not enough of resource type ${p.resourceTypeId}: the price is ${p.amount}, the balance ${typeof details.balance === 'number' ? details.balance : 0}`,
          {
            ...details,
            resourceTypeId: p.resourceTypeId,
          },
        );
      }
    }
  }

  /** Step 5: the requirement data the buyer asked to save. */
  async saveRequested(tx: EntityManager, tenantId: string, userId: string, resolved: ResolvedRequirementData[]): Promise<void> {
    for (const r of resolved) if (r.shouldSave) await this.requirements.saveData(tx, tenantId, userId, r.requirement, r.data);
  }

  /** Step 6: what the listing grants (a prize's supply is a conditional UPDATE of its row here). */
  async grant(tx: EntityManager, tenantId: string, userId: string, listing: StoreListing, purchaseId: string): Promise<void> {
    try {
      if (listing.kind === 'item') {
        // Its supply is taken with the listing's, in the last statement (step 7).
        await this.inventory.grantItem(tx, {
          tenantId,
          userId,
          itemId: listing.itemId!,
          quantity: listing.quantity,
          reason: 'store_purchase',
          reference: purchaseId,
          supplyTakenByCaller: true,
          // Any error of the grant fails the purchase's transaction: no savepoint needed.
          savepoint: false,
        });
      } else if (listing.kind === 'prize') {
        await this.prizes.award(tx, {
          tenantId,
          userId,
          prizeId: listing.prizeId!,
          quantity: listing.quantity,
          source: 'store',
          reason: 'store_purchase',
          reference: purchaseId,
        });
      } else {
        await this.ledger.credit(tx, {
          tenantId,
          userId,
          resourceTypeId: listing.resourceTypeId!,
          amount: listing.quantity,
          reason: 'store_purchase',
          reference: purchaseId,
        });
      }
    } catch (e) {
      if (isDomain(e, InventoryErrors.supply_exhausted) || isDomain(e, PrizeErrors.prize_supply_exhausted)) {
        throw new DomainError(StoreErrors.listing_sold_out, `"${listing.name}" is sold out: ${(e as DomainError).message}`);
      }
      throw e;
    }
  }
}
