import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type ObjectLiteral, type UpdateQueryBuilder } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { DomainError } from '../common/errors/domain-error.js';
import { BaseRepository, DUMMY, GenerateSql, onUniqueViolation } from '../database/repository.js';
import { InventoryItem } from './entities/inventory-item.entity.js';
import { InventorySlot } from './entities/inventory-slot.entity.js';
import { InventoryErrors } from './inventory.errors.js';
import { ITEM_COLUMNS, type ItemRow } from './inventory.mappers.js';

/** An item as a grant reads it. */
export interface GrantItemRow {
  id: string;
  community_id: string;
  slot_id: string;
  name: string;
}

/** A recorded grant, looked up by its idempotency key. */
export interface GrantRow {
  id: string;
  user_id: string;
  item_id: string;
  quantity: number;
}

/** The counts of the inventory summary. */
export interface InventoryCounts {
  items: number;
  owned: number;
  total: number;
  allocated: number;
  version: number | null;
}

/** Slots, items, grants and holdings (inventory_slots, inventory_items, item_grants, user_items). */
@Injectable()
export class InventoryRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  // ---------------------------------------------------------------- grants

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async findGrantItem(tenantId: string, itemId: string, em?: EntityManager): Promise<GrantItemRow | null> {
    const rows: GrantItemRow[] = await this.manager(em).query(
      'SELECT id, community_id, slot_id, name FROM inventory_items WHERE id = $1 AND tenant_id = $2',
      [itemId, tenantId],
    );
    return rows[0] ?? null;
  }

  /** Records a grant; null when its idempotency key was used before (nothing inserted). */
  @GenerateSql({
    params: [
      DUMMY.tenant,
      {
        userId: DUMMY.uuid,
        itemId: DUMMY.uuid2,
        quantity: 1,
        reason: 'store_purchase',
        reference: null,
        idempotencyKey: 'k',
        now: DUMMY.date,
      },
    ],
  })
  async insertGrant(
    tenantId: string,
    g: {
      userId: string;
      itemId: string;
      quantity: number;
      reason: string;
      reference: string | null;
      idempotencyKey: string | null;
      now: Date;
    },
    em?: EntityManager,
  ): Promise<string | null> {
    const inserted: { id: string }[] = await this.manager(em).query(
      `INSERT INTO item_grants (tenant_id, user_id, item_id, quantity, reason, reference, idempotency_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id`,
      [tenantId, g.userId, g.itemId, g.quantity, g.reason, g.reference, g.idempotencyKey, g.now],
    );
    return inserted[0]?.id ?? null;
  }

  @GenerateSql({ params: [DUMMY.tenant, 'k'] })
  async findGrantByIdempotencyKey(tenantId: string, idempotencyKey: string, em?: EntityManager): Promise<GrantRow | null> {
    const rows: GrantRow[] = await this.manager(em).query(
      'SELECT id, user_id, item_id, quantity FROM item_grants WHERE tenant_id = $1 AND idempotency_key = $2',
      [tenantId, idempotencyKey],
    );
    return rows[0] ?? null;
  }

  /**
   * Takes `quantity` units of the item's supply (an unlimited supply always allows it); false when
   * not enough is left. One conditional UPDATE: concurrent grants serialise on the row, never oversell.
   */
  @GenerateSql({ params: [DUMMY.uuid, 1] })
  async takeSupply(itemId: string, quantity: number, em?: EntityManager): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, affected].
    const [, supplied]: [unknown[], number] = await this.manager(em).query(
      'UPDATE inventory_items SET granted = granted + $2 WHERE id = $1 AND (supply IS NULL OR granted + $2 <= supply) RETURNING id',
      [itemId, quantity],
    );
    return supplied > 0;
  }

  /**
   * `takeSupply` as a query another repository runs inside its own statement (a data-modifying
   * CTE): the store takes an item's supply in the same statement as its listing's, so the hot item
   * row is locked only from that statement to the commit. It returns the item's id when the
   * supply allowed it, no row when not. Nothing is sent until the caller runs it.
   */
  // No @GenerateSql: it sends nothing; its SQL is committed as part of StorePurchaseRepository.sell.
  takeSupplyQuery(itemId: string, quantity: number, em?: EntityManager): UpdateQueryBuilder<ObjectLiteral> {
    // By table name, not the entity: the entity's update timestamp would be added to the SET.
    return this.manager(em)
      .createQueryBuilder()
      .update('inventory_items')
      .set({ granted: () => 'granted + :quantity' })
      .where('id = :itemId AND (supply IS NULL OR granted + :quantity <= supply)', { itemId, quantity })
      .returning('id');
  }

  /** Adds units to the user's holding; returns what the user owns now. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, DUMMY.uuid3, 1, DUMMY.date] })
  async addUserItems(
    tenantId: string,
    userId: string,
    itemId: string,
    communityId: string,
    quantity: number,
    now: Date,
    em?: EntityManager,
  ): Promise<number> {
    const [owned]: { quantity: number }[] = await this.manager(em).query(
      `INSERT INTO user_items (user_id, item_id, tenant_id, community_id, quantity, acquired_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (user_id, item_id) DO UPDATE SET quantity = user_items.quantity + EXCLUDED.quantity, updated_at = EXCLUDED.updated_at RETURNING quantity`,
      [userId, itemId, tenantId, communityId, quantity, now],
    );
    return owned.quantity;
  }

  /** Units of the item the user owns (0 when none). User ids are unique across tenants. */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2] })
  async ownedQuantity(userId: string, itemId: string, em?: EntityManager): Promise<number> {
    const rows: { quantity: number }[] = await this.manager(em).query(
      'SELECT quantity FROM user_items WHERE user_id = $1 AND item_id = $2',
      [userId, itemId],
    );
    return rows[0]?.quantity ?? 0;
  }

  // ---------------------------------------------------------------- slots and items

  /** Inserts a slot; a key the community already has is 409 `slot_key_taken`. */
  @GenerateSql({ params: [{ tenantId: DUMMY.tenant, communityId: DUMMY.uuid, key: 'head', name: 'Head', description: '', position: 0 }] })
  createSlot(
    slot: Pick<InventorySlot, 'tenantId' | 'communityId' | 'key' | 'name' | 'description' | 'position'>,
    em?: EntityManager,
  ): Promise<InventorySlot> {
    const repo = this.manager(em).getRepository(InventorySlot);
    return onUniqueViolation(() => repo.save(repo.create(slot)), {
      uq_inventory_slots_community_key: () =>
        new DomainError(InventoryErrors.slot_key_taken, `The community already has a slot "${slot.key}"`),
    });
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  findSlotById(tenantId: string, id: string, em?: EntityManager): Promise<InventorySlot | null> {
    return this.manager(em).getRepository(InventorySlot).findOneBy({ tenantId, id });
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  findCommunitySlotById(tenantId: string, communityId: string, id: string, em?: EntityManager): Promise<InventorySlot | null> {
    return this.manager(em).getRepository(InventorySlot).findOneBy({ tenantId, communityId, id });
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'head'] })
  findSlotByKey(tenantId: string, communityId: string, key: string, em?: EntityManager): Promise<InventorySlot | null> {
    return this.manager(em).getRepository(InventorySlot).findOneBy({ tenantId, communityId, key });
  }

  @GenerateSql({ params: [{ id: DUMMY.uuid, tenantId: DUMMY.tenant, name: 'Head', description: '', position: 0 }] })
  saveSlot(slot: InventorySlot, em?: EntityManager): Promise<InventorySlot> {
    return this.manager(em).getRepository(InventorySlot).save(slot);
  }

  /** The community's slots by position and key. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  slotsOf(tenantId: string, communityId: string, em?: EntityManager): Promise<InventorySlot[]> {
    return this.manager(em)
      .getRepository(InventorySlot)
      .find({ where: { tenantId, communityId }, order: { position: 'ASC', key: 'ASC' } });
  }

  /** The community's slots, unordered (the allocation plan looks them up by id). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  allSlotsOf(tenantId: string, communityId: string, em?: EntityManager): Promise<InventorySlot[]> {
    return this.manager(em).getRepository(InventorySlot).find({ where: { tenantId, communityId } });
  }

  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        communityId: DUMMY.uuid,
        slotId: DUMMY.uuid2,
        name: 'Crown',
        description: '',
        imageUrl: null,
        rarity: 'common',
        attributes: [],
        supply: null,
        granted: 0,
      },
    ],
  })
  createItem(
    item: Pick<
      InventoryItem,
      'tenantId' | 'communityId' | 'slotId' | 'name' | 'description' | 'imageUrl' | 'rarity' | 'attributes' | 'supply' | 'granted'
    >,
    em?: EntityManager,
  ): Promise<InventoryItem> {
    const repo = this.manager(em).getRepository(InventoryItem);
    return repo.save(repo.create(item));
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  findItemById(tenantId: string, id: string, em?: EntityManager): Promise<InventoryItem | null> {
    return this.manager(em).getRepository(InventoryItem).findOneBy({ tenantId, id });
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, { name: 'Crown' }] })
  async updateItem(
    tenantId: string,
    id: string,
    changes: Partial<Pick<InventoryItem, 'name' | 'description' | 'imageUrl' | 'rarity' | 'attributes'>>,
    em?: EntityManager,
  ): Promise<void> {
    await this.manager(em).getRepository(InventoryItem).update({ id, tenantId }, changes);
  }

  /** Sets the supply (null: unlimited) unless it would drop below the units granted; false then. */
  @GenerateSql({ params: [DUMMY.uuid, 10] })
  async setSupply(itemId: string, supply: number | null, em?: EntityManager): Promise<boolean> {
    const res: [unknown[], number] = await this.manager(em).query(
      'UPDATE inventory_items SET supply = $2 WHERE id = $1 AND ($2::int IS NULL OR granted <= $2::int)',
      [itemId, supply],
    );
    return res[1] > 0;
  }

  // ---------------------------------------------------------------- reads

  /** The community's item count and the user's summary (holdings, allocated slots, avatar version). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async counts(tenantId: string, communityId: string, userId: string, em?: EntityManager): Promise<InventoryCounts> {
    const [counts]: InventoryCounts[] = await this.manager(em).query(
      `SELECT (SELECT COUNT(*)::int FROM inventory_items WHERE tenant_id = $1 AND community_id = $2) AS items,
              (SELECT COUNT(*)::int FROM user_items WHERE tenant_id = $1 AND community_id = $2 AND user_id = $3) AS owned,
              (SELECT COALESCE(SUM(quantity), 0)::int FROM user_items WHERE tenant_id = $1 AND community_id = $2 AND user_id = $3) AS total,
              (SELECT COUNT(*)::int FROM avatar_slots WHERE tenant_id = $1 AND community_id = $2 AND user_id = $3) AS allocated,
              (SELECT version FROM avatars WHERE tenant_id = $1 AND community_id = $2 AND user_id = $3) AS version`,
      [tenantId, communityId, userId],
    );
    return counts;
  }

  /** The items allocated to the user's avatar slots. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  allocatedItems(tenantId: string, communityId: string, userId: string, em?: EntityManager): Promise<ItemRow[]> {
    return this.manager(em).query(
      `SELECT ${ITEM_COLUMNS} FROM avatar_slots a JOIN inventory_items i ON i.id = a.item_id JOIN inventory_slots s ON s.id = i.slot_id
       WHERE a.tenant_id = $1 AND a.community_id = $2 AND a.user_id = $3`,
      [tenantId, communityId, userId],
    );
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async findItemRow(tenantId: string, communityId: string, itemId: string, em?: EntityManager): Promise<ItemRow | null> {
    const rows: ItemRow[] = await this.manager(em).query(
      `SELECT ${ITEM_COLUMNS} FROM inventory_items i JOIN inventory_slots s ON s.id = i.slot_id WHERE i.tenant_id = $1 AND i.community_id = $2 AND i.id = $3`,
      [tenantId, communityId, itemId],
    );
    return rows[0] ?? null;
  }

  /**
   * A page of the community's items (optionally of one slot) with what the user owns of each and
   * whether it is allocated; with `onlyOwned`, only those the user owns.
   */
  @GenerateSql(
    { params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, { onlyOwned: false }, DUMMY.page] },
    { name: 'slotOwned', params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, { slotId: DUMMY.uuid3, onlyOwned: true }, DUMMY.page] },
  )
  async userItemsPage(
    tenantId: string,
    communityId: string,
    userId: string,
    filter: { slotId?: string; onlyOwned: boolean },
    page: PageRequest,
    em?: EntityManager,
  ): Promise<{ rows: ItemRow[]; total: number }> {
    const manager = this.manager(em);
    const params: unknown[] = [tenantId, communityId, userId];
    let where = 'i.tenant_id = $1 AND i.community_id = $2';
    if (filter.slotId !== undefined) {
      params.push(filter.slotId);
      where += ` AND i.slot_id = $${params.length}`;
    }
    if (filter.onlyOwned) where += ' AND ui.quantity > 0';
    const from = `FROM inventory_items i JOIN inventory_slots s ON s.id = i.slot_id
      LEFT JOIN user_items ui ON ui.item_id = i.id AND ui.user_id = $3
      LEFT JOIN avatar_slots a ON a.user_id = $3 AND a.slot_id = i.slot_id AND a.item_id = i.id
      WHERE ${where}`;
    const [rows, count] = await Promise.all([
      manager.query<ItemRow[]>(
        `SELECT ${ITEM_COLUMNS}, COALESCE(ui.quantity, 0)::int AS owned, (a.item_id IS NOT NULL) AS allocated ${from}
         ORDER BY s.position, s.key, i.name, i.id OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
        [...params, page.offset, page.limit],
      ),
      manager.query<{ n: number }[]>(`SELECT COUNT(*)::int AS n ${from}`, params),
    ]);
    return { rows, total: count[0].n };
  }

  /** The listed items of the community with what the user owns of each (the allocation checks them). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, [DUMMY.uuid3]] })
  itemsOwned(
    tenantId: string,
    communityId: string,
    userId: string,
    itemIds: string[],
    em?: EntityManager,
  ): Promise<{ id: string; slot_id: string; owned: number }[]> {
    return this.manager(em).query(
      `SELECT i.id, i.slot_id, COALESCE(ui.quantity, 0)::int AS owned FROM inventory_items i
               LEFT JOIN user_items ui ON ui.item_id = i.id AND ui.user_id = $3
               WHERE i.tenant_id = $1 AND i.community_id = $2 AND i.id = ANY($4::uuid[])`,
      [tenantId, communityId, userId, itemIds],
    );
  }

  /** Whether the item is one of the community's. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async itemInCommunity(tenantId: string, communityId: string, itemId: string, em?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.manager(em).query(
      'SELECT 1 FROM inventory_items WHERE id = $1 AND tenant_id = $2 AND community_id = $3',
      [itemId, tenantId, communityId],
    );
    return rows.length > 0;
  }
}
