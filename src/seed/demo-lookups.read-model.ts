import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { Community } from '../communities/entities/community.entity.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { InventoryItem } from '../inventory/entities/inventory-item.entity.js';
import { InventorySlot } from '../inventory/entities/inventory-slot.entity.js';
import { Prize } from '../prizes/entities/prize.entity.js';
import { StoreRequirement } from '../requirements/entities/store-requirement.entity.js';
import { ResourceType } from '../resources/entities/resource-type.entity.js';
import { SeasonSchedule } from '../seasons/entities/season.entity.js';
import { StoreListing } from '../store/entities/store-listing.entity.js';

/**
 * What the demo seed looks up before it makes something (by the natural key it gives it), to be
 * idempotent; it makes everything through the modules' services. Reads only: `communities`
 * (communities), `resource_types` (resources), `inventory_slots` and `inventory_items`
 * (inventory), `store_requirements` (requirements), `prizes` (prizes), `store_listings` (store),
 * `season_schedules` (seasons).
 * The seed's own modules' rows (quests, events, rewards, participants) come from their repositories.
 */
@Injectable()
export class DemoLookupsReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({ params: [DUMMY.tenant, 'pixel-pirates'] })
  communityBySlug(tenantId: string, slug: string, em?: EntityManager): Promise<string | null> {
    return this.idOf(Community, { tenantId, slug }, em);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'xp'] })
  resourceTypeBySlug(tenantId: string, communityId: string, slug: string, em?: EntityManager): Promise<string | null> {
    return this.idOf(ResourceType, { tenantId, communityId, slug }, em);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'Weekly XP'] })
  seasonScheduleByName(tenantId: string, communityId: string, name: string, em?: EntityManager): Promise<string | null> {
    return this.idOf(SeasonSchedule, { tenantId, communityId, name }, em);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'head'] })
  inventorySlotByKey(tenantId: string, communityId: string, key: string, em?: EntityManager): Promise<string | null> {
    return this.idOf(InventorySlot, { tenantId, communityId, key }, em);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'Pirate hat'] })
  inventoryItemByName(tenantId: string, communityId: string, name: string, em?: EntityManager): Promise<string | null> {
    return this.idOf(InventoryItem, { tenantId, communityId, name }, em);
  }

  @GenerateSql({ params: [DUMMY.tenant, 'xp-500'] })
  requirementByKey(tenantId: string, key: string, em?: EntityManager): Promise<string | null> {
    return this.idOf(StoreRequirement, { tenantId, key }, em);
  }

  @GenerateSql({ params: [DUMMY.tenant, 'Founder badge'] })
  prizeByName(tenantId: string, name: string, em?: EntityManager): Promise<string | null> {
    return this.idOf(Prize, { tenantId, name }, em);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'Pirate hat'] })
  storeListingByName(tenantId: string, communityId: string, name: string, em?: EntityManager): Promise<string | null> {
    return this.idOf(StoreListing, { tenantId, communityId, name }, em);
  }

  private async idOf<E extends ObjectLiteral & { id: string }>(
    entity: EntityTarget<E>,
    where: FindOptionsWhere<E>,
    em?: EntityManager,
  ): Promise<string | null> {
    return (await this.manager(em).getRepository(entity).findOneBy(where))?.id ?? null;
  }
}
