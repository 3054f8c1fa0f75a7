import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { EncryptionService } from '../crypto/encryption.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { HotRows } from '../database/hot-rows.js';
import { SummaryFolds } from '../database/summary-folds.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { InventoryService } from '../inventory/inventory.service.js';
import { InventoryErrors } from '../inventory/inventory.errors.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { NotificationType } from '../notifications/notification-types.js';
import { PrizeErrors } from '../prizes/prizes.errors.js';
import { PrizesService } from '../prizes/prizes.service.js';
import { LedgerService } from '../resources/ledger.service.js';
import { ResourceErrors } from '../resources/resources.errors.js';
import type { PurchaseBodyDto, PurchaseResultDto } from './dto/purchase.dto.js';
import type { StoreListing } from './entities/store-listing.entity.js';
import { StoreCatalogReadModel } from './store-catalog.read-model.js';
import { StoreListingRepository } from './store-listing.repository.js';
import { StorePurchaseRepository } from './store-purchase.repository.js';
import { purchaseFingerprint } from '../requirements/requirement-rules.js';
import { RequirementsService, type ResolvedRequirementData } from '../requirements/requirements.service.js';
import { StoreErrors } from './store.errors.js';
import { toPurchaseDto, windowProblem } from './store.mappers.js';
import { purchaseDataContext, StoreService } from './store.service.js';

const isDomain = (e: unknown, def: { error: string }) => e instanceof DomainError && e.definition.error === def.error;

/**
 * Buying a listing. Everything happens in ONE transaction, in this order (a fixed lock order, so
 * concurrent purchases never deadlock):
 *
 * 1. claim the nonce: insert the purchase row (unique per tenant, user and nonce). A concurrent
 *    duplicate waits on that index, then finds the row and replays;
 * 2. conditions (owning an item, a minimum earned amount), read-only;
 * 3. the per-user limit: conditional upsert of the (listing, user) counter (locks that row);
 * 4. the price through the ledger, one debit per resource type in resource-type-id order (the
 *    ledger never goes below zero);
 * 5. requirement data the user asked to save, and the `purchase_completed` notification;
 * 6. the grant (item via the inventory, prize via prizes, resource via the ledger); a prize's
 *    supply is a conditional UPDATE of its row here;
 * 7. the supply: the item's units (for an item listing) and one unit of the listing, each from
 *    one of their supply shards, in one statement (`StorePurchaseRepository.sell`), last, with
 *    the listing's `active` and window checked in it. Shards, not one row: purchases of one
 *    listing do not queue on a row from this statement to the commit.
 *
 * Any failure throws and rolls everything back: nothing is charged. A lock wait past
 * DB_LOCK_TIMEOUT_MS is such a failure (503 `database_timeout`, retried with the same nonce).
 */
@Injectable()
export class StorePurchaseService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly purchases: StorePurchaseRepository,
    private readonly catalog: StoreCatalogReadModel,
    private readonly store: StoreService,
    private readonly communities: CommunitiesService,
    private readonly requirements: RequirementsService,
    private readonly ledger: LedgerService,
    private readonly inventory: InventoryService,
    private readonly prizes: PrizesService,
    private readonly notifications: NotificationsService,
    private readonly encryption: EncryptionService,
    private readonly clock: Clock,
    private readonly hotRows: HotRows,
    private readonly folds: SummaryFolds,
    private readonly listings: StoreListingRepository,
  ) {}

  async purchase(
    tenantId: string,
    userId: string,
    listingId: string,
    body: PurchaseBodyDto,
    containerId?: string,
  ): Promise<PurchaseResultDto> {
    const em = this.dataSource.manager;
    const items = body.requirementData ?? [];
    const fingerprint = purchaseFingerprint(listingId, items);

    // A replay is answered first (one query), before any rule: the original purchase stands even
    // if the listing changed or closed since.
    const replay = await this.findReplay(em, tenantId, userId, body.nonce, fingerprint, listingId);
    if (replay) return replay;

    const listing = await this.store.findListing(em, tenantId, listingId);
    if (containerId !== undefined) {
      const community = await this.communities.resolve(tenantId, containerId);
      if (community.id !== listing.communityId)
        throw new DomainError(StoreErrors.listing_not_found, `Listing ${listing.id} is not in community "${containerId.slice(0, 64)}"`);
    }

    if (!listing.active) throw new DomainError(StoreErrors.listing_not_found, `Listing ${listing.id} is not on sale`);
    const now = this.clock.now();
    this.assertWindow(listing, now);
    if (listing.totalSupply !== null && listing.soldTotal >= listing.totalSupply)
      throw new DomainError(StoreErrors.listing_sold_out, `"${listing.name}" is sold out`);

    const prize = listing.prizeId ? await this.catalog.prize(tenantId, listing.prizeId, em) : null;
    const requirementIds = [...new Set([...listing.requirementIds, ...(prize?.requirementIds ?? [])])];
    const defs = await this.requirements.findMany(em, tenantId, requirementIds);
    const saved = await this.requirements.savedData(
      em,
      tenantId,
      userId,
      defs.filter((d) => d.kind === 'data').map((d) => d.id),
    );
    const resolved = this.requirements.resolveData(defs, items, saved);

    const purchaseId = randomUUID();
    const requirementDataEncrypted = resolved.length
      ? await this.encryption.encrypt(
          JSON.stringify(resolved.map((r) => ({ requirementId: r.requirement.id, data: r.data }))),
          purchaseDataContext(purchaseId),
        )
      : null;

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
        if (createdAt === null) {
          const again = await this.findReplay(tx, tenantId, userId, body.nonce, fingerprint, listing.id);
          if (again) return again;
          throw new Error('purchase nonce conflict without a visible purchase');
        }

        // Every balance row this purchase will change, locked now in resource-type-id order: two
        // purchases of one user that pay in each other's resource cannot deadlock.
        await this.ledger.lockBalances(tx, tenantId, userId, [
          ...listing.price.map((p) => p.resourceTypeId),
          ...(listing.kind === 'resource' && listing.resourceTypeId ? [listing.resourceTypeId] : []),
        ]);

        // 2. Conditions.
        await this.requirements.assertConditions(tx, tenantId, userId, defs);

        // 3. Per-user limit.
        if (!(await this.purchases.countPurchase(tenantId, listing.id, userId, listing.perUserLimit, tx))) {
          throw new DomainError(
            StoreErrors.purchase_limit_reached,
            `"${listing.name}" can be bought ${listing.perUserLimit} time(s) per user`,
            { perUserLimit: listing.perUserLimit },
          );
        }

        // 4. The price, in resource-type-id order.
        for (const p of [...listing.price].sort((a, b) => (a.resourceTypeId < b.resourceTypeId ? -1 : 1))) {
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

        // 5. Saved data and the notification.
        await this.saveRequested(tx, tenantId, userId, resolved);
        await this.notifications.notify(tx, {
          tenantId,
          userId,
          communityId: listing.communityId,
          type: NotificationType.PurchaseCompleted,
          title: `You bought ${listing.name}`,
          data: { purchaseId, listingId: listing.id },
        });

        // 6. The grant (a prize's supply row is updated here; an item's in step 7).
        await this.grant(tx, tenantId, userId, listing, purchaseId);

        // 7. The supply, in one statement just before the commit (the item's, then the listing's):
        //    sharded, so concurrent purchases of the listing update different rows.
        const sale = await this.purchases.sell(
          listing.id,
          now,
          listing.kind === 'item' ? { itemId: listing.itemId!, quantity: listing.quantity } : null,
          tx,
        );
        if (!sale.open) await this.explainUnavailable(tx, tenantId, listing.id, now);
        if (!sale.supplied)
          throw new DomainError(StoreErrors.listing_sold_out, `"${listing.name}" is sold out: no supply left of its item`);
        if (!sale.sold) throw new DomainError(StoreErrors.listing_sold_out, `"${listing.name}" is sold out`);

        const row = {
          id: purchaseId,
          listingId: listing.id,
          communityId: listing.communityId,
          nonce: body.nonce,
          kind: listing.kind,
          itemId: listing.itemId,
          prizeId: listing.prizeId,
          resourceTypeId: listing.resourceTypeId,
          quantity: listing.quantity,
          price: listing.price,
          createdAt,
        };
        return { ...toPurchaseDto(row, listing.name), replayed: false };
      }),
    );
    // The listing's `sold` summary catches up after the commit (the item's: the inventory's event).
    if (!result.replayed) this.folds.schedule(`listing:${listing.id}`, () => this.listings.foldSold(listing.id));
    return result;
  }

  private async findReplay(
    em: EntityManager,
    tenantId: string,
    userId: string,
    nonce: string,
    fingerprint: string,
    listingId: string,
  ): Promise<PurchaseResultDto | null> {
    const existing = await this.purchases.findByNonce(tenantId, userId, nonce, em);
    if (!existing) return null;
    if (existing.fingerprint !== fingerprint) {
      throw new DomainError(
        StoreErrors.nonce_reused,
        existing.listingId === listingId.toLowerCase()
          ? 'This nonce already bought this listing with other requirement data'
          : 'This nonce was already used for another listing',
        { purchaseId: existing.id },
      );
    }
    return { ...toPurchaseDto(existing, existing.listing?.name ?? ''), replayed: true };
  }

  private assertWindow(listing: Pick<StoreListing, 'name' | 'startsAt' | 'endsAt'>, now: Date): void {
    const w = windowProblem(listing, now);
    if (w === 'not_started')
      throw new DomainError(StoreErrors.listing_not_available, `"${listing.name}" is on sale from ${listing.startsAt!.toISOString()}`, {
        startsAt: listing.startsAt,
      });
    if (w === 'ended')
      throw new DomainError(StoreErrors.listing_not_available, `"${listing.name}" was on sale until ${listing.endsAt!.toISOString()}`, {
        endsAt: listing.endsAt,
      });
  }

  /** The supply step found the listing withdrawn or outside its window: say which (it changed since it was read). */
  private async explainUnavailable(tx: EntityManager, tenantId: string, listingId: string, now: Date): Promise<never> {
    const current = await this.store.findListing(tx, tenantId, listingId);
    if (!current.active) throw new DomainError(StoreErrors.listing_not_found, `Listing ${listingId} is not on sale`);
    this.assertWindow(current, now);
    throw new DomainError(StoreErrors.listing_sold_out, `"${current.name}" is sold out`);
  }

  private async saveRequested(tx: EntityManager, tenantId: string, userId: string, resolved: ResolvedRequirementData[]): Promise<void> {
    for (const r of resolved) if (r.shouldSave) await this.requirements.saveData(tx, tenantId, userId, r.requirement, r.data);
  }

  private async grant(tx: EntityManager, tenantId: string, userId: string, listing: StoreListing, purchaseId: string): Promise<void> {
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
