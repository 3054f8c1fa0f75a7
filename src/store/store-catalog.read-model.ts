import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { preparedQuery } from '../database/prepared-query.js';
import { DUMMY, GenerateSql } from '../database/repository.js';
import { Prize } from '../prizes/entities/prize.entity.js';
import { StoreListing } from './entities/store-listing.entity.js';

/** A resource type of the community with the user's balance (null: none yet). */
export interface StoreBalanceRow {
  id: string;
  slug: string;
  name: string;
  kind: string;
  balance: string | null;
}

/** What a purchase reads first: the listing (with its units sold) and, for an item listing, the item. */
export interface PurchaseTarget {
  listing: StoreListing;
  /** The listing's item (null: not an item listing, or the item is gone). */
  item: { id: string; name: string; slotId: string; communityId: string } | null;
}

interface PurchaseTargetRow {
  id: string;
  created_at: Date;
  updated_at: Date;
  tenant_id: string;
  community_id: string;
  name: string;
  description: string;
  image_url: string | null;
  kind: StoreListing['kind'];
  item_id: string | null;
  prize_id: string | null;
  resource_type_id: string | null;
  quantity: number;
  price: StoreListing['price'];
  total_supply: number | null;
  sold: number;
  sold_total: number;
  per_user_limit: number | null;
  starts_at: Date | null;
  ends_at: Date | null;
  requirement_ids: string[];
  active: boolean;
  position: number;
  item_name: string | null;
  item_slot_id: string | null;
  item_community_id: string | null;
}

/**
 * What the store reads of the things it sells and charges for: resource types and balances (to
 * show balances, check prices and targets), and prizes (their requirements, whether a listing's
 * prize is of the community).
 *
 * Reads: `resource_types`, `resource_balances` (resources module); `prizes` (prizes module);
 * `inventory_items` (inventory module: the item a purchase grants, for its notification) and
 * `inventory_item_shards` (what is left of a listed item's supply).
 */
@Injectable()
export class StoreCatalogReadModel {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(em?: EntityManager): EntityManager {
    return em ?? this.dataSource.manager;
  }

  /**
   * The listing a purchase is for, as `StoreListing` (units sold summed from its shards, as the
   * entity's virtual column), with its item's name and slot: one prepared statement, the first of
   * a purchase's two round trips (the second is `StorePurchaseRepository.purchaseItem`).
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async purchaseTarget(tenantId: string, listingId: string, em?: EntityManager): Promise<PurchaseTarget | null> {
    const sql = `SELECT l.id, l.created_at, l.updated_at, l.tenant_id, l.community_id, l.name, l.description, l.image_url, l.kind,
         l.item_id, l.prize_id, l.resource_type_id, l.quantity, l.price, l.total_supply, l.sold, l.per_user_limit, l.starts_at,
         l.ends_at, l.requirement_ids, l.active, l.position,
         (SELECT COALESCE(SUM(h.sold), 0)::int FROM store_listing_shards h WHERE h.listing_id = l.id) AS sold_total,
         i.name AS item_name, i.slot_id AS item_slot_id, i.community_id AS item_community_id
       FROM store_listings l LEFT JOIN inventory_items i ON i.id = l.item_id AND i.tenant_id = l.tenant_id
       WHERE l.id = $1 AND l.tenant_id = $2`;
    const [r] = em?.queryRunner
      ? await em.query<PurchaseTargetRow[]>(sql, [listingId, tenantId])
      : await preparedQuery<PurchaseTargetRow>(this.dataSource, sql, [listingId, tenantId]);
    if (!r) return null;
    const listing = Object.assign(new StoreListing(), {
      id: r.id,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      tenantId: r.tenant_id,
      communityId: r.community_id,
      name: r.name,
      description: r.description,
      imageUrl: r.image_url,
      kind: r.kind,
      itemId: r.item_id,
      prizeId: r.prize_id,
      resourceTypeId: r.resource_type_id,
      quantity: r.quantity,
      price: r.price,
      totalSupply: r.total_supply,
      soldFolded: r.sold,
      soldTotal: r.sold_total,
      perUserLimit: r.per_user_limit,
      startsAt: r.starts_at,
      endsAt: r.ends_at,
      requirementIds: r.requirement_ids,
      active: r.active,
      position: r.position,
    });
    const item =
      r.item_id && r.item_name !== null
        ? { id: r.item_id, name: r.item_name, slotId: r.item_slot_id!, communityId: r.item_community_id! }
        : null;
    return { listing, item };
  }

  /** The community's resource types with the user's balances, global ones first, by slug. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  balances(tenantId: string, communityId: string, userId: string, em?: EntityManager): Promise<StoreBalanceRow[]> {
    return this.manager(em).query(
      `SELECT t.id, t.slug, t.name, t.kind, b.balance FROM resource_types t
       LEFT JOIN resource_balances b ON b.resource_type_id = t.id AND b.user_id = $3
       WHERE t.tenant_id = $1 AND t.community_id = $2 ORDER BY (t.kind = 'global') DESC, t.slug`,
      [tenantId, communityId, userId],
    );
  }

  /** resource type id -> the user's balance, for every balance the user has in the tenant. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async userBalances(tenantId: string, userId: string, em?: EntityManager): Promise<Map<string, number>> {
    const balances: { resource_type_id: string; balance: string }[] = await this.manager(em).query(
      'SELECT resource_type_id, balance FROM resource_balances WHERE tenant_id = $1 AND user_id = $2',
      [tenantId, userId],
    );
    return new Map(balances.map((b) => [b.resource_type_id, Number(b.balance)]));
  }

  /**
   * item id -> the units left of its supply (its cap less Σ granted over its shards), for the
   * listed items with a supply; an item absent from the map is unlimited.
   */
  @GenerateSql({ params: [DUMMY.tenant, [DUMMY.uuid, DUMMY.uuid2]] })
  async itemsLeft(tenantId: string, itemIds: string[], em?: EntityManager): Promise<Map<string, number>> {
    const rows: { id: string; left: number }[] = await this.manager(em).query(
      `SELECT i.id, i.supply - COALESCE((SELECT SUM(s.granted) FROM inventory_item_shards s WHERE s.item_id = i.id), 0)::int AS left
       FROM inventory_items i WHERE i.tenant_id = $1 AND i.id = ANY($2::uuid[]) AND i.supply IS NOT NULL`,
      [tenantId, itemIds],
    );
    return new Map(rows.map((r) => [r.id, r.left]));
  }

  /** Which of `ids` are resource types of the community. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, [DUMMY.uuid2]] })
  async resourceTypesOf(tenantId: string, communityId: string, ids: string[], em?: EntityManager): Promise<Set<string>> {
    const found: { id: string }[] = await this.manager(em).query(
      'SELECT id FROM resource_types WHERE tenant_id = $1 AND community_id = $2 AND id = ANY($3::uuid[])',
      [tenantId, communityId, ids],
    );
    return new Set(found.map((f) => f.id));
  }

  /** The kind (`global`, `scoped`) of the community's resource type; null: not one of the community. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async resourceTypeKindIn(tenantId: string, communityId: string, resourceTypeId: string, em?: EntityManager): Promise<string | null> {
    const rows: { kind: string }[] = await this.manager(em).query(
      'SELECT kind FROM resource_types WHERE id = $1 AND tenant_id = $2 AND community_id = $3',
      [resourceTypeId, tenantId, communityId],
    );
    return rows[0]?.kind ?? null;
  }

  /** Whether the prize can be sold in the community: the tenant's, of no community or of this one. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async prizeAvailableIn(tenantId: string, communityId: string, prizeId: string, em?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.manager(em).query(
      'SELECT 1 FROM prizes WHERE id = $1 AND tenant_id = $2 AND (community_id IS NULL OR community_id = $3)',
      [prizeId, tenantId, communityId],
    );
    return rows.length > 0;
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  prize(tenantId: string, prizeId: string, em?: EntityManager): Promise<Prize | null> {
    return this.manager(em).getRepository(Prize).findOneBy({ tenantId, id: prizeId });
  }

  @GenerateSql({ params: [DUMMY.tenant, [DUMMY.uuid, DUMMY.uuid2]] })
  prizes(tenantId: string, prizeIds: string[], em?: EntityManager): Promise<Prize[]> {
    return this.manager(em)
      .getRepository(Prize)
      .createQueryBuilder('p')
      .where('p.tenantId = :tenantId AND p.id IN (:...ids)', { tenantId, ids: prizeIds })
      .getMany();
  }
}
