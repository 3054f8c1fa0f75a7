import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';

/** A row of `holdingsPage`. */
export interface HoldingRow {
  community_id: string;
  community_slug: string;
  item_id: string;
  name: string;
  rarity: string;
  image_url: string | null;
  slot_key: string;
  quantity: number;
  acquired_at: Date;
  allocated: boolean;
  avatar_mint_status: string | null;
}

/**
 * What a player holds in every community, for support. Reads only: `user_items`, `inventory_items`,
 * `inventory_slots`, `avatar_slots`, `avatar_mints` (inventory) joined with `communities` (its slug).
 */
@Injectable()
export class HoldingsReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * A page of what the user holds in every community of the tenant (management), by community
   * slug, slot position and item name; with whether each item is on the avatar and the status of
   * the avatar's latest mint there.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.page] })
  async holdingsPage(
    tenantId: string,
    userId: string,
    page: PageRequest,
    em?: EntityManager,
  ): Promise<{ rows: HoldingRow[]; total: number }> {
    const manager = this.manager(em);
    const from = `FROM user_items ui JOIN inventory_items i ON i.id = ui.item_id JOIN inventory_slots s ON s.id = i.slot_id
      JOIN communities c ON c.id = ui.community_id
      WHERE ui.tenant_id = $1 AND ui.user_id = $2 AND ui.quantity > 0`;
    const [rows, count] = await Promise.all([
      manager.query<HoldingRow[]>(
        `SELECT ui.community_id, c.slug AS community_slug, i.id AS item_id, i.name, i.rarity, i.image_url, s.key AS slot_key,
                ui.quantity, ui.acquired_at,
                EXISTS (SELECT 1 FROM avatar_slots a WHERE a.user_id = ui.user_id AND a.item_id = i.id AND a.slot_id = i.slot_id) AS allocated,
                (SELECT m.status FROM avatar_mints m WHERE m.tenant_id = $1 AND m.community_id = ui.community_id AND m.user_id = ui.user_id
                 ORDER BY m.created_at DESC LIMIT 1) AS avatar_mint_status
         ${from}
         ORDER BY c.slug, s.position, s.key, i.name, i.id OFFSET $3 LIMIT $4`,
        [tenantId, userId, page.offset, page.limit],
      ),
      manager.query<{ n: number }[]>(`SELECT COUNT(*)::int AS n ${from}`, [tenantId, userId]),
    ]);
    return { rows, total: count[0].n };
  }
}
