import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { StoreListing } from './entities/store-listing.entity.js';

/** Store listings (store_listings) and the per-user purchase counters (store_purchase_counts). */
@Injectable()
export class StoreListingRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  findById(tenantId: string, id: string, em?: EntityManager): Promise<StoreListing | null> {
    return this.manager(em).getRepository(StoreListing).findOneBy({ tenantId, id });
  }

  /** Locks the listing row for the caller's transaction (its `sold` must not move meanwhile). */
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
        sold: 0,
        perUserLimit: null,
        startsAt: null,
        endsAt: null,
        requirementIds: [],
        active: true,
        position: 0,
      },
    ],
  })
  create(listing: Omit<StoreListing, 'id' | 'createdAt' | 'updatedAt'>, em?: EntityManager): Promise<StoreListing> {
    const repo = this.manager(em).getRepository(StoreListing);
    return repo.save(repo.create(listing));
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
