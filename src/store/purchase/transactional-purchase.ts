import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { DomainError } from '../../common/errors/domain-error.js';
import { HotRows } from '../../database/hot-rows.js';
import type { ResolvedRequirementData } from '../../requirements/requirements.service.js';
import type { PurchaseBodyDto, PurchaseResultDto } from '../dto/purchase.dto.js';
import type { StoreListing } from '../entities/store-listing.entity.js';
import { StorePurchaseRepository } from '../store-purchase.repository.js';
import { StoreErrors } from '../store.errors.js';
import { toPurchaseDto } from '../store.mappers.js';
import { ListingSupply } from './listing-supply.js';
import { PurchaseChecks } from './purchase-checks.js';
import { PurchaseEvents } from './purchase-events.js';
import { PurchaseReplays } from './purchase-replays.js';
import { PurchaseSettlement } from './purchase-settlement.js';

type RequirementDefinitions = Awaited<ReturnType<PurchaseChecks['requirementsOf']>>;

/** What the purchase answers once its transaction bought `listing`. */
function bought(purchaseId: string, listing: StoreListing, nonce: string, createdAt: Date): PurchaseResultDto {
  const row = {
    id: purchaseId,
    listingId: listing.id,
    communityId: listing.communityId,
    nonce,
    kind: listing.kind,
    itemId: listing.itemId,
    prizeId: listing.prizeId,
    resourceTypeId: listing.resourceTypeId,
    quantity: listing.quantity,
    price: listing.price,
    createdAt,
  };
  return { ...toPurchaseDto(row, listing.name), replayed: false };
}

/** Steps 1-7 in a transaction of their own statements: every listing the one-statement path does not sell. */
@Injectable()
export class TransactionalPurchase {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly purchases: StorePurchaseRepository,
    private readonly hotRows: HotRows,
    private readonly checks: PurchaseChecks,
    private readonly replays: PurchaseReplays,
    private readonly settlement: PurchaseSettlement,
    private readonly events: PurchaseEvents,
    private readonly supply: ListingSupply,
  ) {}

  async purchase(
    tenantId: string,
    userId: string,
    listingId: string,
    body: PurchaseBodyDto,
    containerId: string | undefined,
    fingerprint: string,
  ): Promise<PurchaseResultDto> {
    const em = this.dataSource.manager;
    const items = body.requirementData ?? [];

    // A replay is answered first (one query), before any rule: the original purchase stands even
    // if the listing changed or closed since.
    const replay = await this.replays.find(em, tenantId, userId, body.nonce, fingerprint, listingId);
    if (replay) return replay;

    const listing = await this.checks.listingIn(em, tenantId, listingId, containerId);
    const now = this.checks.onSaleNow(listing, body.expectedPrice);
    const defs = await this.checks.requirementsOf(em, tenantId, listing);
    const resolved = await this.checks.resolveData(em, tenantId, userId, defs, items);

    const purchaseId = randomUUID();
    const requirementDataEncrypted = resolved.length ? await this.settlement.sealData(resolved, purchaseId) : null;

    // Every purchase of the listing takes a key-share lock on its row (the purchase row's foreign
    // key), which the management API's lock waits for and blocks: at most half the pool waits on it.
    const result = await this.hotRows.run(`listing:${listing.id}`, () =>
      this.dataSource.transaction(async (tx) => {
        // 1. The nonce.
        const createdAt = await this.purchases.claimNonce(
          tenantId,
          {
            id: purchaseId,
            userId,
            listingId: listing.id,
            communityId: listing.communityId,
            nonce: body.nonce,
            fingerprint,
            kind: listing.kind,
            itemId: listing.itemId,
            prizeId: listing.prizeId,
            resourceTypeId: listing.resourceTypeId,
            quantity: listing.quantity,
            price: listing.price,
            requirementDataEncrypted,
            now,
          },
          tx,
        );
        if (createdAt === null) return this.replays.ofTakenNonce(tx, tenantId, userId, body.nonce, fingerprint, listing.id);
        await this.steps(tx, tenantId, userId, listing, purchaseId, now, defs, resolved);
        return bought(purchaseId, listing, body.nonce, createdAt);
      }),
    );
    if (!result.replayed) this.supply.soldAfterCommit(listing.id);
    return result;
  }

  /** Steps 2-7 and the completion, after the nonce was claimed (a fixed lock order: purchases never deadlock). */
  private async steps(
    tx: EntityManager,
    tenantId: string,
    userId: string,
    listing: StoreListing,
    purchaseId: string,
    now: Date,
    defs: RequirementDefinitions,
    resolved: ResolvedRequirementData[],
  ): Promise<void> {
    await this.settlement.lockBalances(tx, tenantId, userId, listing);

    // 2. Conditions.
    await this.checks.assertConditions(tx, tenantId, userId, defs);

    // 3. Per-user limit.
    if (!(await this.purchases.countPurchase(tenantId, listing.id, userId, listing.perUserLimit, tx))) {
      throw new DomainError(
        StoreErrors.purchase_limit_reached,
        `"${listing.name}" can be bought ${listing.perUserLimit} time(s) per user`,
        { perUserLimit: listing.perUserLimit },
      );
    }

    // 4. The price, in resource-type-id order.
    await this.settlement.charge(tx, tenantId, userId, listing.price, purchaseId);

    // 5. Saved data and the notification.
    await this.settlement.saveRequested(tx, tenantId, userId, resolved);
    await this.events.notifyBought(tx, tenantId, userId, listing, purchaseId);

    // 6. The grant (a prize's supply row is updated here; an item's in step 7).
    await this.settlement.grant(tx, tenantId, userId, listing, purchaseId);

    // 7. The supply, the item's then the listing's, last.
    await this.supply.take(tx, tenantId, listing, now);
    await this.events.completed(tx, tenantId, userId, purchaseId, listing);
  }
}
