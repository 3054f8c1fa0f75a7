import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainEvents, type DomainEventType, type PublishOptions } from '../../common/events/domain-events.js';
import type { OutboxRecord } from '../../integrations/outbox.repository.js';
import { OutboxWriter } from '../../integrations/outbox.writer.js';
import { InventoryService } from '../../inventory/inventory.service.js';
import { NotificationType } from '../../notifications/notification-types.js';
import { NotificationsService } from '../../notifications/notifications.service.js';
import { LedgerService } from '../../resources/ledger.service.js';
import type { StoreListing } from '../entities/store-listing.entity.js';
import type { PurchaseTarget } from '../store-catalog.read-model.js';
import type { StorePurchaseCompleted } from '../store.events.js';
import type { ItemPurchase, ItemPurchaseOutcome } from '../store-purchase.repository.js';
import { toPrice } from '../store.mappers.js';

/** One purchase on the one-statement path: whose, of what, under which id. */
export interface ItemSale {
  tenantId: string;
  userId: string;
  purchaseId: string;
  listing: StoreListing;
  item: NonNullable<PurchaseTarget['item']>;
}

/** What the one-statement function wrote, as its events tell it. */
export type ItemSaleWritten = Pick<ItemPurchaseOutcome & { status: 'bought' }, 'grantId' | 'itemId' | 'quantity' | 'debits'>;

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

/**
 * What a purchase says: the buyer's notifications, `store.purchase_completed`, and on the
 * one-statement path the grant's and debits' events and outbox records, said as the inventory and
 * the ledger say them on the general path.
 */
@Injectable()
export class PurchaseEvents {
  /** Every event `announce` publishes: a handler of any of them in the transaction rules out the autocommit statement. */
  private readonly published: readonly DomainEventType[];
  /** The handlers the one statement does the work of when it writes the outbox rows itself. */
  readonly handledBy = [OutboxWriter.HANDLER];

  constructor(
    private readonly inventory: InventoryService,
    private readonly ledger: LedgerService,
    private readonly domainEvents: DomainEvents,
    private readonly notifications: NotificationsService,
    private readonly outbox: OutboxWriter,
  ) {
    this.published = [...inventory.callerGrantEvents, ...ledger.callerDebitEvents, 'store.purchase_completed', 'notification.created'];
  }

  // ------------------------------------------------------------------ the general path

  /** Step 5: the `purchase_completed` notification, in the purchase's transaction. */
  async notifyBought(tx: EntityManager, tenantId: string, userId: string, listing: StoreListing, purchaseId: string): Promise<void> {
    await this.notifications.notify(tx, {
      tenantId,
      userId,
      communityId: listing.communityId,
      type: NotificationType.PurchaseCompleted,
      title: `You bought ${listing.name}`,
      data: { purchaseId, listingId: listing.id },
    });
  }

  /** Buffered with the transaction's other events and written in one statement at the commit. */
  completed(tx: EntityManager, tenantId: string, userId: string, purchaseId: string, listing: StoreListing): Promise<void> {
    return this.domainEvents.publish(tx, 'store.purchase_completed', purchaseCompleted(tenantId, userId, purchaseId, listing));
  }

  // ------------------------------------------------------------------ the one-statement path

  /** The notification rows the statement writes: the purchase's and the grant's. */
  notices({ tenantId, userId, purchaseId, listing, item }: ItemSale): ItemPurchase['notifications'] {
    const notices = [
      this.notifications.prepare({
        tenantId,
        userId,
        communityId: listing.communityId,
        type: NotificationType.PurchaseCompleted,
        title: `You bought ${listing.name}`,
        data: { purchaseId, listingId: listing.id },
      }),
      this.notifications.prepare(this.inventory.grantNotification(tenantId, userId, item, listing.quantity)),
    ];
    return notices.map((n) => ({
      communityId: n.communityId,
      type: n.type,
      title: n.title,
      data: n.data,
      createdAt: n.createdAt,
    }));
  }

  /**
   * When the outbox is the only handler that writes in the purchase's transaction, the purchase's
   * one statement writes its rows too (OutboxRepository.insertPiece): the purchase stays one
   * autocommit statement, and its locks are not held over more round trips (docs/performance.md).
   */
  ownOutbox(): boolean {
    return this.outbox.enabled && !this.domainEvents.hasInTransactionHandlers(this.published, this.handledBy);
  }

  /** Whether a handler of the purchase's events must write in its transaction (DomainEvents.inTransaction). */
  inTransactionHandlers(): boolean {
    return this.domainEvents.hasInTransactionHandlers(this.published);
  }

  /** The grant, debits and completion as the events say them. */
  private said({ tenantId, userId, purchaseId, listing, item }: ItemSale, r: ItemSaleWritten) {
    return {
      grant: {
        tenantId,
        grantId: r.grantId,
        itemId: r.itemId,
        communityId: item.communityId,
        userId,
        quantity: r.quantity,
        reason: 'store_purchase',
        reference: purchaseId,
      },
      debits: r.debits.map((d) => ({ tenantId, userId, ...d, reason: 'store_purchase', reference: purchaseId })),
      completed: purchaseCompleted(tenantId, userId, purchaseId, listing),
    };
  }

  /** Publishes what the statement wrote, in `em` (its transaction, or after its commit). */
  async announce(em: EntityManager, sale: ItemSale, r: ItemSaleWritten, options?: PublishOptions): Promise<void> {
    const e = this.said(sale, r);
    await this.inventory.grantedByCaller(em, e.grant, options);
    for (const d of e.debits) await this.ledger.debitedByCaller(em, d, options);
    await this.domainEvents.publish(em, 'store.purchase_completed', e.completed, options);
    await this.notifications.written(em, sale.tenantId, sale.userId, null);
  }

  /** The events as the listing read says they will be; the statement merges in what only it knows. */
  expectedRecords(sale: ItemSale): OutboxRecord[] {
    return this.records(sale, {
      grantId: '',
      itemId: sale.item.id,
      quantity: sale.listing.quantity,
      debits: sale.listing.price.map((c) => ({ resourceTypeId: c.resourceTypeId, kind: 'global', amount: c.amount, balance: 0 })),
    });
  }

  /** The statement wrote `written` (the records of `expectedRecords`): hands them to the outbox's delivery. */
  committed(sale: ItemSale, r: ItemSaleWritten & { deliveries: number }, written: OutboxRecord[]): void {
    this.outbox.committed(this.records(sale, r, written), { deliveries: r.deliveries });
  }

  /** The outbox records of what `said` says (ids kept from `ids` when given: the rows written already). */
  private records(sale: ItemSale, r: ItemSaleWritten, ids?: OutboxRecord[]): OutboxRecord[] {
    const e = this.said(sale, r);
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
  }
}
