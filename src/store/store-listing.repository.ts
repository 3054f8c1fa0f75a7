import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { StoreListing } from './entities/store-listing.entity.js';

/** Shards per listing (docs/decisions.md, "Store and prizes"): more than the purchases of one listing ever in flight. */
export const LISTING_SHARDS = 16;

/** Store listings (store_listings, their supply shards store_listing_shards) and the per-user purchase counters (store_purchase_counts). */
@Injectable()
export class StoreListingRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  findById(tenantId: string, id: string, em?: EntityManager): Promise<StoreListing | null> {
    return this.manager(em).getRepository(StoreListing).findOneBy({ tenantId, id });
  }

  /**
   * Locks the listing row for the caller's transaction: its units sold must not move meanwhile.
   * Purchases hold a key-share lock on it from their first insert (the purchase row's foreign key),
   * so this waits for those in flight and new ones wait for it.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async lock(tenantId: string, id: string, em?: EntityManager): Promise<void> {
    // Listing ids are unique across tenants; the caller found it in the tenant.
    await this.manager(em).query('SELECT 1 FROM store_listings WHERE id = $1 FOR UPDATE', [id]);
  }

  /** A page of the community's listings on sale at `now` (active, not ended), by position. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.date, DUMMY.page] })
  onSale(tenantId: string, communityId: string, now: Date, page: PageRequest, em?: EntityManager): Promise<[StoreListing[], number]> {
    return this.manager(em)
      .getRepository(StoreListing)
      .createQueryBuilder('l')
      .where('l.tenantId = :tenantId AND l.communityId = :communityId AND l.active AND (l.endsAt IS NULL OR l.endsAt > :now)', {
        tenantId,
        communityId,
        now,
      })
      .orderBy('l.position', 'ASC')
      .addOrderBy('l.createdAt', 'ASC')
      .addOrderBy('l.id', 'ASC')
      .skip(page.offset)
      .take(page.limit)
      .getManyAndCount();
  }

  /** A page of the tenant's listings (of one community when given), oldest first. */
  @GenerateSql({ params: [DUMMY.tenant, undefined, DUMMY.page] }, { name: 'community', params: [DUMMY.tenant, DUMMY.uuid, DUMMY.page] })
  page(tenantId: string, communityId: string | undefined, page: PageRequest, em?: EntityManager): Promise<[StoreListing[], number]> {
    return this.manager(em)
      .getRepository(StoreListing)
      .findAndCount({
        where: communityId ? { tenantId, communityId } : { tenantId },
        order: { createdAt: 'ASC', id: 'ASC' },
        skip: page.offset,
        take: page.limit,
      });
  }

  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        communityId: DUMMY.uuid,
        name: 'Crown',
        description: '',
        imageUrl: null,
        kind: 'item',
        itemId: DUMMY.uuid2,
        prizeId: null,
        resourceTypeId: null,
        quantity: 1,
        price: [],
        totalSupply: null,
        soldFolded: 0,
        perUserLimit: null,
        startsAt: null,
        endsAt: null,
        requirementIds: [],
        active: true,
        position: 0,
      },
    ],
  })
  create(listing: Omit<StoreListing, 'id' | 'createdAt' | 'updatedAt' | 'soldTotal'>, em?: EntityManager): Promise<StoreListing> {
    const repo = this.manager(em).getRepository(StoreListing);
    return repo.save(repo.create(listing));
  }

  /** Writes the listing's shards: `totalSupply` (null: unlimited) split into LISTING_SHARDS shares, nothing sold. */
  @GenerateSql({ params: [DUMMY.uuid, 10] })
  async createShards(listingId: string, totalSupply: number | null, em?: EntityManager): Promise<void> {
    await this.manager(em).query(
      `INSERT INTO store_listing_shards (listing_id, shard, cap, sold)
       SELECT $1, g, $2::int / $3 + CASE WHEN g < $2::int % $3 THEN 1 ELSE 0 END, 0 FROM generate_series(0, $3 - 1) AS g`,
      [listingId, totalSupply, LISTING_SHARDS],
    );
  }

  /**
   * Gives every shard its share of a new total supply (null: unlimited): its own `sold` plus an
   * even part of what is left, so the caps add up to the supply. Run under `lock` (no purchase of
   * the listing in flight) after checking the supply is not below the units sold; also brings the
   * `sold` summary up to date.
   */
  @GenerateSql({ params: [DUMMY.uuid, 10], inTransaction: true })
  async resupply(listingId: string, totalSupply: number | null, em?: EntityManager): Promise<void> {
    await this.manager(em).query(
      `WITH t AS (SELECT COALESCE(SUM(sold), 0)::int AS sold, COUNT(*)::int AS n FROM store_listing_shards WHERE listing_id = $1),
       shards AS (
         UPDATE store_listing_shards s
         SET cap = s.sold + ($2::int - t.sold) / t.n + CASE WHEN s.shard < ($2::int - t.sold) % t.n THEN 1 ELSE 0 END
         FROM t WHERE s.listing_id = $1)
       UPDATE store_listings l SET sold = t.sold FROM t WHERE l.id = $1`,
      [listingId, totalSupply],
    );
  }

  /**
   * Refreshes the `sold` column from the shards (a summary: `SummaryFolds` calls this shortly
   * after purchases commit). Only ever raises it, so an older fold that commits late cannot lower
   * it. Never waits for the row: false (nothing done) when another transaction holds it for an
   * update (a management change); purchases' key-share locks do not conflict with this one.
   */
  @GenerateSql({ params: [DUMMY.uuid] })
  async foldSold(listingId: string, em?: EntityManager): Promise<boolean> {
    const [r]: { free: boolean }[] = await this.manager(em).query(
      `WITH target AS (SELECT id, sold FROM store_listings WHERE id = $1 FOR NO KEY UPDATE SKIP LOCKED),
       t AS (SELECT COALESCE(SUM(sold), 0)::int AS sold FROM store_listing_shards WHERE listing_id = $1),
       folded AS (UPDATE store_listings l SET sold = t.sold FROM target, t WHERE l.id = target.id AND target.sold < t.sold)
       SELECT EXISTS (SELECT 1 FROM target) AS free`,
      [listingId],
    );
    return r.free;
  }

  @GenerateSql({ params: [{ id: DUMMY.uuid, tenantId: DUMMY.tenant, name: 'Crown' }] })
  save(listing: StoreListing, em?: EntityManager): Promise<StoreListing> {
    return this.manager(em).getRepository(StoreListing).save(listing);
  }

  /** listing id -> purchases of the user, for the listings the user bought at least once. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, [DUMMY.uuid2]] })
  async purchaseCounts(tenantId: string, userId: string, listingIds: string[], em?: EntityManager): Promise<Map<string, number>> {
    const counts: { listing_id: string; count: number }[] = await this.manager(em).query(
      'SELECT listing_id, count FROM store_purchase_counts WHERE tenant_id = $1 AND user_id = $2 AND listing_id = ANY($3::uuid[])',
      [tenantId, userId, listingIds],
    );
    return new Map(counts.map((c) => [c.listing_id, c.count]));
  }
}
