import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { DUMMY, GenerateSql } from '../database/repository.js';
import { Prize } from '../prizes/entities/prize.entity.js';

/** A resource type of the community with the user's balance (null: none yet). */
export interface StoreBalanceRow {
  id: string;
  slug: string;
  name: string;
  kind: string;
  balance: string | null;
}

/**
 * What the store reads of the things it sells and charges for: resource types and balances (to
 * show balances, check prices and targets), and prizes (their requirements, whether a listing's
 * prize is of the community).
 *
 * Reads: `resource_types`, `resource_balances` (resources module); `prizes` (prizes module).
 */
@Injectable()
export class StoreCatalogReadModel {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(em?: EntityManager): EntityManager {
    return em ?? this.dataSource.manager;
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

  /** Which of `ids` are resource types of the community. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, [DUMMY.uuid2]] })
  async resourceTypesOf(tenantId: string, communityId: string, ids: string[], em?: EntityManager): Promise<Set<string>> {
    const found: { id: string }[] = await this.manager(em).query(
      'SELECT id FROM resource_types WHERE tenant_id = $1 AND community_id = $2 AND id = ANY($3::uuid[])',
      [tenantId, communityId, ids],
    );
    return new Set(found.map((f) => f.id));
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async resourceTypeInCommunity(tenantId: string, communityId: string, resourceTypeId: string, em?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.manager(em).query(
      'SELECT 1 FROM resource_types WHERE id = $1 AND tenant_id = $2 AND community_id = $3',
      [resourceTypeId, tenantId, communityId],
    );
    return rows.length > 0;
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
