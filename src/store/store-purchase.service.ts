import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { EncryptionService } from '../crypto/encryption.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { HotRows } from '../database/hot-rows.js';
import { SummaryFolds } from '../database/summary-folds.js';
import { CommunitiesService, UUID_RE } from '../communities/communities.service.js';
import { DomainEvents, type PublishOptions } from '../common/events/domain-events.js';
import { OutboxWriter } from '../integrations/outbox.writer.js';
import type { OutboxRecord } from '../integrations/outbox.repository.js';
import { retryWriteConflicts } from '../common/errors/write-conflict.js';
import { InventoryService } from '../inventory/inventory.service.js';
import { InventoryErrors } from '../inventory/inventory.errors.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { NotificationType } from '../notifications/notification-types.js';
import { PrizeErrors } from '../prizes/prizes.errors.js';
import { PrizesService } from '../prizes/prizes.service.js';
import { LedgerService } from '../resources/ledger.service.js';
import { ResourceErrors } from '../resources/resources.errors.js';
import type { PurchaseBodyDto, PurchaseResultDto } from './dto/purchase.dto.js';
import type { PriceComponent, StoreListing } from './entities/store-listing.entity.js';
import type { StorePurchaseCompleted } from './store.events.js';
import { StoreCatalogReadModel } from './store-catalog.read-model.js';
import { StoreListingRepository } from './store-listing.repository.js';
import { type ItemPurchaseOutcome, StorePurchaseRepository } from './store-purchase.repository.js';
import type { PurchaseTarget } from './store-catalog.read-model.js';
import { purchaseFingerprint } from '../requirements/requirement-rules.js';
import { RequirementsService, type ResolvedRequirementData } from '../requirements/requirements.service.js';
import { StoreErrors } from './store.errors.js';
import { toPrice, toPurchaseDto, windowProblem } from './store.mappers.js';
import { purchaseDataContext, StoreService } from './store.service.js';

/** A refusal of the one-statement purchase inside a transaction: rolls it back, then is answered. */
class Refused extends Error {
  constructor(readonly outcome: ItemPurchaseOutcome) {
    super('purchase refused');
  }
}

/** What `store.purchase_completed` says of a purchase of `listing`. */
function purchaseCompleted(tenantId: string, userId: string, purchaseId: string, listing: StoreListing): StorePurchaseCompleted {
  return {
    tenantId,
    purchaseId,
    listingId: listing.id,
    communityId: listing.communityId,
    userId,
    kind: listing.kind,
    itemId: listing.itemId,
    prizeId: listing.prizeId,
    resourceTypeId: listing.resourceTypeId,
    quantity: listing.quantity,
    price: toPrice(listing.price),
  };
}

const isDomain = (e: unknown, def: { error: string }) => e instanceof DomainError && e.definition.error === def.error;

/**
 * Whether the purchase may charge `price`: no `expectedPrice` was sent, or it is that price (the same
 * amount of each resource type, in any order).
 */
function priceAgreed(expected: readonly PriceComponent[] | undefined, price: readonly PriceComponent[]): boolean {
  if (expected === undefined) return true;
  const key = (p: PriceComponent) => `${p.resourceTypeId.toLowerCase()}:${Number(p.amount)}`;
  const want = expected.map(key).sort();
  const have = price.map(key).sort();
  return want.length === have.length && want.every((k, i) => k === have[i]);
}

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
 *
 * The hot case, an item listing without requirements, on sale, takes one round trip instead of
 * about nineteen (two when its listing was not read within READ_CACHE_MS): the listing and its
 * item, read in one prepared statement and kept (`StoreService.purchaseTarget`), then steps 1-7
 * in one statement, the database function `store_purchase_item` (`StorePurchaseRepository.purchaseItem`),
 * with the same rows, checks and lock order. Every other purchase (requirements, prizes, resources,
 * or a listing found closed or sold out, whose error the general path words) takes the general
 * path below. docs/decisions.md ("Purchases in one statement").
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
    private readonly domainEvents: DomainEvents,
    private readonly outbox: OutboxWriter,
  ) {}

  /**
   * A purchase that lost a deadlock (concurrent purchases and a supply change can lock supply
   * shards in opposite orders, both paths) was rolled back whole: it runs again before the buyer
   * is told to retry.
   */
  purchase(tenantId: string, userId: string, listingId: string, body: PurchaseBodyDto, containerId?: string): Promise<PurchaseResultDto> {
    return retryWriteConflicts(() => this.purchaseOnce(tenantId, userId, listingId, body, containerId));
  }

  private async purchaseOnce(
    tenantId: string,
    userId: string,
    listingId: string,
    body: PurchaseBodyDto,
    containerId?: string,
  ): Promise<PurchaseResultDto> {
    const items = body.requirementData ?? [];
    const fingerprint = purchaseFingerprint(listingId, items);
    if (items.length === 0 && UUID_RE.test(listingId)) {
      const target = await this.store.purchaseTarget(tenantId, listingId.toLowerCase());
      // Another price than the expected one goes to the general path, which answers a replay first.
      if (
        target &&
        priceAgreed(body.expectedPrice, target.listing.price) &&
        (await this.sellsInOneStatement(tenantId, target, containerId))
      ) {
        const done = await this.purchaseItem(tenantId, userId, target, body.nonce, fingerprint);
        if (done) return done;
      }
    }
    return this.purchaseInTransaction(tenantId, userId, listingId, body, containerId, fingerprint);
  }

  /**
   * Whether the one-statement path sells this listing now: an item listing without requirements,
   * active, in its window, not known to be sold out, in the community named by `containerId`.
   * Anything else (including every refusal found here) takes the general path, which answers a
   * replay first and words the error.
   */
  private async sellsInOneStatement(tenantId: string, { listing, item }: PurchaseTarget, containerId?: string): Promise<boolean> {
    if (listing.kind !== 'item' || !item || listing.prizeId !== null || listing.requirementIds.length > 0 || !listing.active) return false;
    if (windowProblem(listing, this.clock.now()) !== null) return false;
    if (listing.totalSupply !== null && listing.soldTotal >= listing.totalSupply) return false;
    if (containerId !== undefined && (await this.communities.resolve(tenantId, containerId).catch(() => null))?.id !== listing.communityId)
      return false;
    return true;
  }

  /**
   * Steps 1-7 for an item listing in one statement (`StorePurchaseRepository.purchaseItem`); null
   * when the listing changed since it was read, into something it does not sell or to another
   * price (then the general path runs).
   */
  private async purchaseItem(
    tenantId: string,
    userId: string,
    { listing, item }: PurchaseTarget,
    nonce: string,
    fingerprint: string,
  ): Promise<PurchaseResultDto | null> {
    const purchaseId = randomUUID();
    const now = this.clock.now();
    const notices = [
      this.notifications.prepare({
        tenantId,
        userId,
        communityId: listing.communityId,
        type: NotificationType.PurchaseCompleted,
        title: `You bought ${listing.name}`,
        data: { purchaseId, listingId: listing.id },
      }),
      this.notifications.prepare(this.inventory.grantNotification(tenantId, userId, item!, listing.quantity)),
    ];
    const input = {
      purchaseId,
      userId,
      listingId: listing.id,
      nonce,
      fingerprint,
      now,
      price: listing.price,
      notifications: notices.map((n) => ({
        communityId: n.communityId,
        type: n.type,
        title: n.title,
        data: n.data,
        createdAt: n.createdAt,
      })),
    };
    // What the function wrote, said as the ledger, the inventory and the store say it on the general path.
    type Said = Pick<ItemPurchaseOutcome & { status: 'bought' }, 'grantId' | 'itemId' | 'quantity' | 'debits'>;
    const said = (r: Said) => ({
      grant: {
        tenantId,
        grantId: r.grantId,
        itemId: r.itemId,
        communityId: item!.communityId,
        userId,
        quantity: r.quantity,
        reason: 'store_purchase',
        reference: purchaseId,
      },
      debits: r.debits.map((d) => ({ tenantId, userId, ...d, reason: 'store_purchase', reference: purchaseId })),
      completed: purchaseCompleted(tenantId, userId, purchaseId, listing),
    });
    const announce = async (em: EntityManager, r: Said, options?: PublishOptions) => {
      const e = said(r);
      await this.inventory.grantedByCaller(em, e.grant, options);
      for (const d of e.debits) await this.ledger.debitedByCaller(em, d, options);
      await this.domainEvents.publish(em, 'store.purchase_completed', e.completed, options);
      await this.notifications.written(em, tenantId, userId, null);
    };
    /** The outbox records of what `said` says (ids kept from `ids` when given: the rows written already). */
    const records = (r: Said, ids?: OutboxRecord[]): OutboxRecord[] => {
      const e = said(r);
      const built = [
        this.outbox.build('inventory.item_granted', e.grant),
        ...e.debits.map((d) => this.outbox.build('resource.debited', d)),
        this.outbox.build('store.purchase_completed', e.completed),
      ];
      if (!ids) return built;
      // The same event of the rows written: by type, and for a debit by its resource type.
      const key = (x: OutboxRecord) =>
        `${x.type}:${typeof x.payload.resourceTypeId === 'string' ? x.payload.resourceTypeId.toLowerCase() : ''}`;
      const written = new Map(ids.map((x) => [key(x), x]));
      return built.map((x) => ({ ...x, id: written.get(key(x))!.id, occurredAt: written.get(key(x))!.occurredAt }));
    };
    // Every event `announce` publishes: a handler of any of them in the transaction rules out the autocommit statement.
    const published = [
      ...this.inventory.callerGrantEvents,
      ...this.ledger.callerDebitEvents,
      'store.purchase_completed',
      'notification.created',
    ] as const;
    const handledBy = [OutboxWriter.HANDLER];
    // When the outbox is the only handler that writes in the purchase's transaction, the purchase's
    // one statement writes its rows too (OutboxRepository.insertPiece): the purchase stays one
    // autocommit statement, and its locks are not held over more round trips (docs/performance.md).
    const ownOutbox = this.outbox.enabled && !this.domainEvents.hasInTransactionHandlers(published, handledBy);
    const outcome = await this.hotRows.run(`listing:${listing.id}`, async (): Promise<ItemPurchaseOutcome> => {
      // One statement that commits on its own, unless another handler must write in the purchase's
      // transaction (DomainEvents.inTransaction): then the statement and the handlers run in one.
      if (!this.domainEvents.hasInTransactionHandlers(published) || ownOutbox) {
        // The events as the listing read says they will be; the statement merges in what only it knows.
        const events = ownOutbox
          ? records({
              grantId: '',
              itemId: item!.id,
              quantity: listing.quantity,
              debits: listing.price.map((c) => ({ resourceTypeId: c.resourceTypeId, kind: 'global', amount: c.amount, balance: 0 })),
            })
          : [];
        const r = await this.purchases.purchaseItem(tenantId, { ...input, events });
        if (r.status !== 'bought') return r;
        // The statement wrote the events: it bought at the price they were built from (another
        // price is refused as `changed`), so nothing of the purchase is left to write after its commit.
        await announce(this.dataSource.manager, r, ownOutbox ? { handledBy } : undefined);
        if (ownOutbox) this.outbox.committed(records(r, events), { deliveries: r.deliveries });
        return r;
      }
      try {
        return await this.dataSource.transaction(async (tx) => {
          const r = await this.purchases.purchaseItem(tenantId, input, tx);
          // The failed statement aborted the transaction: roll it back, answer the refusal.
          if (r.status === 'refused') throw new Refused(r);
          if (r.status === 'bought') await announce(tx, r);
          return r;
        });
      } catch (err) {
        if (err instanceof Refused) return err.outcome;
        throw err;
      }
    });

    if (outcome.status === 'bought') {
      // The listing's `sold` summary catches up after the commit (the item's: the inventory's event).
      this.folds.schedule(`listing:${listing.id}`, () => this.listings.foldSold(listing.id));
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
    if (outcome.status === 'replay') {
      const again = await this.findReplay(this.dataSource.manager, tenantId, userId, nonce, fingerprint, listing.id);
      if (again) return again;
      throw new Error('purchase nonce conflict without a visible purchase');
    }
    const d = outcome.details;
    switch (outcome.refusal) {
      case 'listing_not_found':
      case 'changed':
        return null;
      case 'closed':
        return this.explainUnavailable(this.dataSource.manager, tenantId, listing.id, now);
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

  /** Steps 1-7 in a transaction of their own statements: every listing the one-statement path does not sell. */
  private async purchaseInTransaction(
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
    const replay = await this.findReplay(em, tenantId, userId, body.nonce, fingerprint, listingId);
    if (replay) return replay;

    const listing = await this.store.findListing(em, tenantId, listingId);
    if (containerId !== undefined) {
      const community = await this.communities.resolve(tenantId, containerId);
      if (community.id !== listing.communityId)
        throw new DomainError(StoreErrors.listing_not_found, `Listing ${listing.id} is not in community "${containerId.slice(0, 64)}"`);
    }

    if (!listing.active) throw new DomainError(StoreErrors.listing_not_found, `Listing ${listing.id} is not on sale`);
    // The price read here is the one charged (and recorded) below.
    if (!priceAgreed(body.expectedPrice, listing.price)) {
      throw new DomainError(
        StoreErrors.price_changed,
        `"${listing.name}" costs another price than expectedPrice now: nothing was charged`,
        { price: toPrice(listing.price) },
      );
    }
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
        // Buffered with the transaction's other events and written in one statement at the commit.
        await this.domainEvents.publish(tx, 'store.purchase_completed', purchaseCompleted(tenantId, userId, purchaseId, listing));

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
