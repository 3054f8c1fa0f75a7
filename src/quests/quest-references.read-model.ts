import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';

/**
 * What quests refer to, checked when they are written or completed: the user, and rewards of the
 * quest's community. Reads only: `users` (users), `resource_types` (resources), `inventory_items`
 * (inventory).
 */
@Injectable()
export class QuestReferencesReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Whether the user belongs to the tenant. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async userExists(tenantId: string, userId: string, em?: EntityManager): Promise<boolean> {
    const found: unknown[] = await this.manager(em).query('SELECT 1 FROM users WHERE id = $1 AND tenant_id = $2', [userId, tenantId]);
    return found.length > 0;
  }

  /** The kind and event binding of a resource type of the community, or null when the community has no such type. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async communityResourceType(
    tenantId: string,
    communityId: string,
    typeId: string | undefined,
    em?: EntityManager,
  ): Promise<{ kind: string; quest_event_id: string | null } | null> {
    const rows: { kind: string; quest_event_id: string | null }[] = await this.manager(em).query(
      'SELECT kind, quest_event_id FROM resource_types WHERE id = $1 AND tenant_id = $2 AND community_id = $3',
      [typeId, tenantId, communityId],
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
