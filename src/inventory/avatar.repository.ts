import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';

/** The avatar of a user in a community and its slot allocation (avatars, avatar_slots). */
@Injectable()
export class AvatarRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async find(
    tenantId: string,
    communityId: string,
    userId: string,
    em?: EntityManager,
  ): Promise<{ version: number; updated_at: Date } | null> {
    const rows: { version: number; updated_at: Date }[] = await this.manager(em).query(
      'SELECT version, updated_at FROM avatars WHERE tenant_id = $1 AND community_id = $2 AND user_id = $3',
      [tenantId, communityId, userId],
    );
    return rows[0] ?? null;
  }

  /** Creates the avatar (version 0) unless it exists. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, DUMMY.date] })
  async ensure(tenantId: string, communityId: string, userId: string, now: Date, em?: EntityManager): Promise<void> {
    await this.manager(em).query(
      `INSERT INTO avatars (community_id, user_id, tenant_id, version, updated_at) VALUES ($1, $2, $3, 0, $4) ON CONFLICT (community_id, user_id) DO NOTHING`,
      [communityId, userId, tenantId, now],
    );
  }

  /** Locks the avatar row for the caller's transaction; its version, or null when there is none. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async lock(tenantId: string, communityId: string, userId: string, em?: EntityManager): Promise<number | null> {
    // Community ids are unique across tenants: the key is (community, user).
    const rows: { version: number }[] = await this.manager(em).query(
      'SELECT version FROM avatars WHERE community_id = $1 AND user_id = $2 FOR UPDATE',
      [communityId, userId],
    );
    return rows[0]?.version ?? null;
  }

  /** One more version, after the allocation changed. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, DUMMY.date] })
  async bumpVersion(tenantId: string, communityId: string, userId: string, now: Date, em?: EntityManager): Promise<void> {
    await this.manager(em).query('UPDATE avatars SET version = version + 1, updated_at = $3 WHERE community_id = $1 AND user_id = $2', [
      communityId,
      userId,
      now,
    ]);
  }

  /** slot id -> item id of the user's allocation. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async allocation(tenantId: string, communityId: string, userId: string, em?: EntityManager): Promise<Map<string, string>> {
    const rows: { slot_id: string; item_id: string }[] = await this.manager(em).query(
      'SELECT slot_id, item_id FROM avatar_slots WHERE community_id = $1 AND user_id = $2',
      [communityId, userId],
    );
    return new Map(rows.map((r) => [r.slot_id, r.item_id]));
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async clearSlot(tenantId: string, userId: string, slotId: string, em?: EntityManager): Promise<void> {
    await this.manager(em).query('DELETE FROM avatar_slots WHERE user_id = $1 AND slot_id = $2', [userId, slotId]);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, DUMMY.uuid3, DUMMY.uuid, DUMMY.date] })
  async setSlot(
    tenantId: string,
    communityId: string,
    userId: string,
    slotId: string,
    itemId: string,
    now: Date,
    em?: EntityManager,
  ): Promise<void> {
    await this.manager(em).query(
      `INSERT INTO avatar_slots (user_id, slot_id, item_id, tenant_id, community_id, allocated_at) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (user_id, slot_id) DO UPDATE SET item_id = EXCLUDED.item_id, allocated_at = EXCLUDED.allocated_at`,
      [userId, slotId, itemId, tenantId, communityId, now],
    );
  }
}
