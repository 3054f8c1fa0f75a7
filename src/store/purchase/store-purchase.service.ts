import { Injectable } from '@nestjs/common';
import { retryWriteConflicts } from '../../common/errors/write-conflict.js';
import { idOf } from '../../common/validation/uuid.js';
import { purchaseFingerprint } from '../../requirements/requirement-rules.js';
import type { PurchaseBodyDto, PurchaseResultDto } from '../dto/purchase.dto.js';
import { StoreCaches } from '../store.caches.js';
import { OneStatementPurchase } from './one-statement-purchase.js';
import { PurchaseChecks, priceAgreed } from './purchase-checks.js';
import { TransactionalPurchase } from './transactional-purchase.js';

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
 * item, read in one prepared statement and kept (`StoreCaches.purchaseTarget`), then steps 1-7
 * in one statement, the database function `store_purchase_item` (`OneStatementPurchase`),
 * with the same rows, checks and lock order. Every other purchase (requirements, prizes, resources,
 * or a listing found closed or sold out, whose error the general path words) takes the general
 * path (`TransactionalPurchase`). Replays: `PurchaseReplays`; the checks: `PurchaseChecks`. docs/decisions.md ("Purchases in one statement").
 */
@Injectable()
export class StorePurchaseService {
  constructor(
    private readonly caches: StoreCaches,
    private readonly checks: PurchaseChecks,
    private readonly oneStatement: OneStatementPurchase,
    private readonly general: TransactionalPurchase,
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
    const id = idOf(listingId);
    if (items.length === 0 && id) {
      const target = await this.caches.purchaseTarget(tenantId, id);
      // Another price than the expected one goes to the general path, which answers a replay first.
      if (
        target &&
        priceAgreed(body.expectedPrice, target.listing.price) &&
        (await this.checks.sellsInOneStatement(tenantId, target, containerId))
      ) {
        const done = await this.oneStatement.purchase(tenantId, userId, target, body.nonce, fingerprint);
        if (done) return done;
      }
    }
    return this.general.purchase(tenantId, userId, listingId, body, containerId, fingerprint);
  }
}
