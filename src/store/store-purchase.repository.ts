import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { InventoryRepository } from '../inventory/inventory.repository.js';
import type { ListingKind, PriceComponent } from './entities/store-listing.entity.js';
import { StorePurchase } from './entities/store-purchase.entity.js';

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

/** The outcome of the purchase's last statement. */
export interface SaleResult {
  /** false: the item's supply did not allow it (nothing taken). */
  supplied: boolean;
  /** The listing's units sold after this one; null when its supply, window or `active` refused it. */
  sold: number | null;
}

/** Purchases (store_purchases), the per-user counters they move, and the purchase's hot statement. */
@Injectable()
export class StorePurchaseRepository extends BaseRepository {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly inventory: InventoryRepository,
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
   * The purchase's last statement: takes the item's supply (for an item listing; the inventory
   * provides that update) and the listing's supply within its window, in ONE statement sent just
   * before the commit, so these hot rows stay locked only from it to the commit. The item's row is
   * taken first, so always in this order; the listing is not touched when the item's supply refuses.
   */
  @GenerateSql(
    { params: [DUMMY.uuid, DUMMY.date, null] },
    { name: 'item', params: [DUMMY.uuid, DUMMY.date, { itemId: DUMMY.uuid2, quantity: 1 }] },
  )
  async sell(listingId: string, now: Date, item: { itemId: string; quantity: number } | null, em?: EntityManager): Promise<SaleResult> {
    const [itemSql, itemParams]: [string, unknown[]] = item
      ? this.inventory.takeSupplyQuery(item.itemId, item.quantity, em).getQueryAndParameters()
      : ['SELECT 1', []];
    const n = itemParams.length;
    const [last]: SaleResult[] = await this.manager(em).query(
      `WITH item AS (${itemSql}),
         listing AS (
           UPDATE store_listings SET sold = sold + 1 WHERE id = $${n + 1} AND active
             AND (total_supply IS NULL OR sold + 1 <= total_supply)
             AND (starts_at IS NULL OR starts_at <= $${n + 2}) AND (ends_at IS NULL OR ends_at > $${n + 2})
             AND EXISTS (SELECT 1 FROM item)
           RETURNING sold)
         SELECT EXISTS (SELECT 1 FROM item) AS supplied, (SELECT sold FROM listing) AS sold`,
      [...itemParams, listingId, now],
    );
    return last;
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
