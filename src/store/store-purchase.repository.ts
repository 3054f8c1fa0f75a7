import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { preparedQuery } from '../database/prepared-query.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { randomItemShard } from '../inventory/inventory.repository.js';
import type { ListingKind, PriceComponent } from './entities/store-listing.entity.js';
import type { ResourceKind } from '../resources/entities/resource-type.entity.js';
import { StorePurchase } from './entities/store-purchase.entity.js';
import { EXAMPLE_OUTBOX_RECORD, OutboxRepository, PIECE_DELIVERIES, type OutboxRecord } from '../integrations/outbox.repository.js';
import { LISTING_SHARDS } from './store-listing.repository.js';

/** What the purchase row records (the nonce claim). */
export interface NewStorePurchase {
  id: string;
  userId: string;
  listingId: string;
  communityId: string;
  nonce: string;
  fingerprint: string;
  kind: ListingKind;
  itemId: string | null;
  prizeId: string | null;
  resourceTypeId: string | null;
  quantity: number;
  price: PriceComponent[];
  requirementDataEncrypted: string | null;
  now: Date;
}

/** The outcome of the purchase's supply step. */
export interface SaleResult {
  /** false: the listing is not active or not within its window (nothing taken). */
  open: boolean;
  /** false: the item's supply did not allow it (the listing's was not taken). */
  supplied: boolean;
  /** true: one unit of the listing's supply was taken; false: none is left. */
  sold: boolean;
}

/** What `purchaseItem` writes besides what the listing says: the caller's ids, clock and notifications. */
export interface ItemPurchase {
  purchaseId: string;
  userId: string;
  listingId: string;
  nonce: string;
  fingerprint: string;
  now: Date;
  /**
   * The listing's price as the caller read it, which its events say: the statement refuses
   * (`changed`, nothing written) when the listing's is another by then.
   */
  price: PriceComponent[];
  /** Rows for `notifications` (NotificationsService.prepare), written in the same statement. */
  notifications: { communityId: string | null; type: string; title: string; data: Record<string, unknown>; createdAt: Date }[];
  /**
   * The purchase's outbox events, written by the same statement when it buys (none for a replay;
   * a refusal writes nothing): `inventory.item_granted` gets the grant's id, each `resource.debited`
   * its debit (`kind`, `amount`, `balance`) from the function's result.
   */
  events?: OutboxRecord[];
}

/** One debit of the price as the function made it (what `resource.debited` carries). */
export interface ItemPurchaseDebit {
  resourceTypeId: string;
  kind: ResourceKind;
  amount: number;
  /** The balance after the debit. */
  balance: number;
}

/** Why `purchaseItem` refused (everything it wrote was rolled back); the store maps each to its error. */
export type ItemPurchaseRefusal =
  | 'listing_not_found'
  | 'changed'
  | 'closed'
  | 'insufficient_balance'
  | 'resource_type_not_found'
  | 'purchase_limit_reached'
  | 'item_not_found'
  | 'item_sold_out'
  | 'sold_out';

export type ItemPurchaseOutcome =
  | {
      status: 'bought';
      createdAt: Date;
      communityId: string;
      itemId: string;
      quantity: number;
      price: PriceComponent[];
      grantId: string;
      debits: ItemPurchaseDebit[];
      /** Webhook deliveries the statement's events made (0 when it wrote none). */
      deliveries: number;
    }
  /** The nonce was taken: nothing written; the caller answers the purchase that took it. */
  | { status: 'replay' }
  | { status: 'refused'; refusal: ItemPurchaseRefusal; details: Record<string, unknown> };

const REFUSAL = /^store_purchase_item: ([a-z_]+)$/;

/** Where a take starts looking (then in shard order, wrapping): spreads concurrent purchases over the shards. */
const randomShard = () => Math.floor(Math.random() * LISTING_SHARDS);

/** Purchases (store_purchases), the per-user counters they move, and the purchase's supply step. */
@Injectable()
export class StorePurchaseRepository extends BaseRepository {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly outbox: OutboxRepository,
  ) {
    super(dataSource);
  }

  /** The user's purchase with that nonce, with its listing's id and name. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'nonce-1'] })
  findByNonce(tenantId: string, userId: string, nonce: string, em?: EntityManager): Promise<StorePurchase | null> {
    return this.manager(em)
      .getRepository(StorePurchase)
      .createQueryBuilder('p')
      .innerJoin('p.listing', 'l')
      .addSelect(['l.id', 'l.name'])
      .where('p.tenantId = :tenantId AND p.userId = :userId AND p.nonce = :nonce', { tenantId, userId, nonce })
      .getOne();
  }

  /**
   * Claims the nonce by inserting the purchase row (unique per tenant, user and nonce); its
   * `created_at`, or null when the nonce was taken (a concurrent duplicate waits on that index).
   */
  @GenerateSql({
    params: [
      DUMMY.tenant,
      {
        id: DUMMY.uuid,
        userId: DUMMY.uuid2,
        listingId: DUMMY.uuid3,
        communityId: DUMMY.uuid,
        nonce: 'nonce-1',
        fingerprint: 'f',
        kind: 'item',
        itemId: DUMMY.uuid2,
        prizeId: null,
        resourceTypeId: null,
        quantity: 1,
        price: [],
        requirementDataEncrypted: null,
        now: DUMMY.date,
      },
    ],
  })
  async claimNonce(tenantId: string, p: NewStorePurchase, em?: EntityManager): Promise<Date | null> {
    const inserted: { created_at: Date }[] = await this.manager(em).query(
      `INSERT INTO store_purchases (id, tenant_id, user_id, listing_id, community_id, nonce, fingerprint, kind, item_id, prize_id, resource_type_id, quantity, price, requirement_data_encrypted, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
         ON CONFLICT (tenant_id, user_id, nonce) DO NOTHING RETURNING created_at`,
      [
        p.id,
        tenantId,
        p.userId,
        p.listingId,
        p.communityId,
        p.nonce,
        p.fingerprint,
        p.kind,
        p.itemId,
        p.prizeId,
        p.resourceTypeId,
        p.quantity,
        JSON.stringify(p.price),
        p.requirementDataEncrypted,
        p.now,
      ],
    );
    return inserted[0]?.created_at ?? null;
  }

  /** Counts one more purchase of the listing by the user (locks that counter row); false past `perUserLimit`. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, 3] })
  async countPurchase(
    tenantId: string,
    listingId: string,
    userId: string,
    perUserLimit: number | null,
    em?: EntityManager,
  ): Promise<boolean> {
    const counted: { count: number }[] = await this.manager(em).query(
      `INSERT INTO store_purchase_counts (listing_id, user_id, tenant_id, count) VALUES ($1, $2, $3, 1)
         ON CONFLICT (listing_id, user_id) DO UPDATE SET count = store_purchase_counts.count + 1
         WHERE $4::int IS NULL OR store_purchase_counts.count + 1 <= $4::int RETURNING count`,
      [listingId, userId, tenantId, perUserLimit],
    );
    return counted.length > 0;
  }

  /**
   * The purchase's supply step, last before the commit: one unit of the listing's supply and, for
   * an item listing, the item's (`quantity` units). Both are sharded, so purchases of one listing
   * update different rows.
   *
   * One statement: it checks the listing is active and within its window, then takes the item's
   * units (`cgs_take_item_supply`, as `InventoryRepository.takeSupply`), then a unit of the
   * listing (`cgs_take_listing_unit`), in that order (CASE evaluates its branches in turn and stops
   * at the first that holds). Each take starts at a shard no other purchase holds and waits for the
   * holders only when there is none, so a listing is never reported sold out while any shard has a
   * unit left (migrations/1795717161396-SupplyTakeFunctions.ts).
   */
  @GenerateSql(
    { params: [DUMMY.uuid, DUMMY.date, null] },
    { name: 'item', params: [DUMMY.uuid, DUMMY.date, { itemId: DUMMY.uuid2, quantity: 1 }] },
  )
  async sell(listingId: string, now: Date, item: { itemId: string; quantity: number } | null, em?: EntityManager): Promise<SaleResult> {
    const [r]: { outcome: 'closed' | 'no_supply' | 'sold_out' | 'sold' }[] = await this.manager(em).query(
      `SELECT CASE
         WHEN NOT EXISTS (SELECT 1 FROM store_listings WHERE id = $1 AND active
                            AND (starts_at IS NULL OR starts_at <= $2) AND (ends_at IS NULL OR ends_at > $2)) THEN 'closed'
         ${item ? "WHEN NOT cgs_take_item_supply($4::uuid, $5::int, $6::int) THEN 'no_supply'" : ''}
         WHEN NOT cgs_take_listing_unit($1, $3::int) THEN 'sold_out'
         ELSE 'sold' END AS outcome`,
      item ? [listingId, now, randomShard(), item.itemId, item.quantity, randomItemShard()] : [listingId, now, randomShard()],
    );
    return { open: r.outcome !== 'closed', supplied: r.outcome !== 'no_supply', sold: r.outcome === 'sold' };
  }

  /**
   * The whole purchase of an item listing without requirements in ONE statement: the database
   * function `store_purchase_item` (migrations/1796200000000-PurchaseFunctionsByModule.ts: it calls
   * each module's own function; their source as PostgreSQL holds it: src/queries/database-functions.sql). It does what the general path's
   * transaction does (nonce, ledger debits, per-user limit, notifications, grant, supply shards), in
   * the same lock order, with the listing's price, limit and window read under its key-share lock;
   * a price other than `p.price` is refused (`changed`), so what it charges is what the events say.
   * Outside a transaction (`em` omitted) it commits on its own: one round trip, prepared.
   */
  @GenerateSql({
    params: [
      DUMMY.tenant,
      {
        purchaseId: DUMMY.uuid,
        userId: DUMMY.uuid2,
        listingId: DUMMY.uuid3,
        nonce: 'nonce-1',
        fingerprint: 'f',
        now: DUMMY.date,
        price: [{ resourceTypeId: DUMMY.uuid, amount: 5 }],
        notifications: [],
        events: [{ ...EXAMPLE_OUTBOX_RECORD, type: 'resource.debited', payload: { resourceTypeId: DUMMY.uuid } }],
      },
    ],
  })
  async purchaseItem(tenantId: string, p: ItemPurchase, em?: EntityManager): Promise<ItemPurchaseOutcome> {
    const call = `SELECT created_at, community_id, item_id, quantity, price, grant_id, debits
       FROM store_purchase_item($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;
    // The events in the same statement: the function's row is read once (a CTE calling a volatile
    // function is materialised), the outbox CTEs merge what only it knows into the payloads.
    const piece = p.events?.length
      ? this.outbox.insertPiece(p.events, 12, {
          payloadMerge: `CASE e.type
              WHEN 'inventory.item_granted' THEN jsonb_build_object('grantId', (SELECT grant_id FROM r))
              WHEN 'resource.debited' THEN COALESCE((SELECT d FROM r, jsonb_array_elements(r.debits) AS d
                                                    WHERE lower(d->>'resourceTypeId') = lower(e.payload->>'resourceTypeId') LIMIT 1), '{}'::jsonb)
              ELSE '{}'::jsonb END`,
          // Only when it bought (a replay writes nothing); at the price the events were built from,
          // since the function refuses any other.
          onlyIf: '(SELECT created_at FROM r) IS NOT NULL',
        })
      : null;
    const sql = piece
      ? `WITH r AS (${call}),
       ${piece.ctes}
     SELECT r.*, ${PIECE_DELIVERIES} AS deliveries FROM r`
      : call;
    const params = [
      tenantId,
      p.userId,
      p.listingId,
      p.purchaseId,
      p.nonce,
      p.fingerprint,
      p.now,
      randomItemShard(),
      randomShard(),
      // The function's row shape (snake_case, as its jsonb_to_recordset names the columns).
      JSON.stringify(
        p.notifications.map((n) => ({ community_id: n.communityId, type: n.type, title: n.title, data: n.data, created_at: n.createdAt })),
      ),
      JSON.stringify(p.price),
      ...(piece?.params ?? []),
    ];
    type Row = {
      created_at: Date | null;
      community_id: string;
      item_id: string;
      quantity: number;
      price: PriceComponent[];
      grant_id: string;
      debits: ItemPurchaseDebit[];
      deliveries?: number;
    };
    let row: Row;
    try {
      [row] = await preparedQuery<Row>(this.manager(em), sql, params);
    } catch (err) {
      const e = err as { driverError?: { message?: string; detail?: string } };
      const m = REFUSAL.exec(e.driverError?.message ?? '');
      if (!m) throw err;
      const detail = e.driverError?.detail;
      return {
        status: 'refused',
        refusal: m[1] as ItemPurchaseRefusal,
        details: detail ? (JSON.parse(detail) as Record<string, unknown>) : {},
      };
    }
    if (row.created_at === null) return { status: 'replay' };
    return {
      status: 'bought',
      createdAt: row.created_at,
      communityId: row.community_id,
      itemId: row.item_id,
      quantity: row.quantity,
      price: row.price,
      grantId: row.grant_id,
      debits: row.debits.map((d) => ({ ...d, amount: Number(d.amount), balance: Number(d.balance) })),
      deliveries: row.deliveries ?? 0,
    };
  }

  /** A page of the user's purchases in the community (with their listings), newest first. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, DUMMY.page] })
  userPage(
    tenantId: string,
    userId: string,
    communityId: string,
    page: PageRequest,
    em?: EntityManager,
  ): Promise<[StorePurchase[], number]> {
    return this.manager(em)
      .getRepository(StorePurchase)
      .createQueryBuilder('p')
      .innerJoinAndSelect('p.listing', 'l')
      .where('p.tenantId = :tenantId AND p.userId = :userId AND p.communityId = :communityId', { tenantId, userId, communityId })
      .orderBy('p.createdAt', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .skip(page.offset)
      .take(page.limit)
      .getManyAndCount();
  }

  /** A page of the tenant's purchases (of one listing and/or user when given, with their listings), newest first. */
  @GenerateSql(
    { params: [DUMMY.tenant, {}, DUMMY.page] },
    { name: 'filtered', params: [DUMMY.tenant, { listingId: DUMMY.uuid, userId: DUMMY.uuid2 }, DUMMY.page] },
  )
  adminPage(
    tenantId: string,
    filter: { listingId?: string; userId?: string },
    page: PageRequest,
    em?: EntityManager,
  ): Promise<[StorePurchase[], number]> {
    const qb = this.manager(em)
      .getRepository(StorePurchase)
      .createQueryBuilder('p')
      .innerJoinAndSelect('p.listing', 'l')
      .where('p.tenantId = :tenantId', { tenantId });
    if (filter.listingId) qb.andWhere('p.listingId = :listingId', { listingId: filter.listingId });
    if (filter.userId) qb.andWhere('p.userId = :userId', { userId: filter.userId });
    return qb.orderBy('p.createdAt', 'DESC').addOrderBy('p.id', 'DESC').skip(page.offset).take(page.limit).getManyAndCount();
  }
}
