import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';

/**
 * What an event's rewards refer to, checked when they are written (a resource type or item of the
 * event's community). Reads only: `resource_types` (resources) and `inventory_items` (inventory).
 */
@Injectable()
export class EventReferencesReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The resource type's community, kind and event binding, or null. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async resourceType(
    tenantId: string,
    typeId: string,
    em?: EntityManager,
  ): Promise<{ community_id: string; kind: string; quest_event_id: string | null } | null> {
    const rows: { community_id: string; kind: string; quest_event_id: string | null }[] = await this.manager(em).query(
      'SELECT community_id, kind, quest_event_id FROM resource_types WHERE id = $1 AND tenant_id = $2',
      [typeId, tenantId],
    );
    return rows[0] ?? null;
  }

  /** Whether the inventory item belongs to the community. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async isCommunityItem(tenantId: string, communityId: string, itemId: string | undefined, em?: EntityManager): Promise<boolean> {
    const ok: unknown[] = await this.manager(em).query(
      'SELECT 1 FROM inventory_items WHERE id = $1 AND tenant_id = $2 AND community_id = $3',
      [itemId, tenantId, communityId],
    );
    return ok.length > 0;
  }
}
