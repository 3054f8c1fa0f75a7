import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { DomainError } from '../common/errors/domain-error.js';
import { BaseRepository, DUMMY, GenerateSql, onConstraintViolation } from '../database/repository.js';
import { InventoryItem } from './entities/inventory-item.entity.js';
import { InventorySlot } from './entities/inventory-slot.entity.js';
import { InventoryErrors } from './inventory.errors.js';
import { ITEM_COLUMNS, type ItemRow } from './inventory.mappers.js';

/** Shards per item (docs/decisions.md, "Store and prizes"): more than the grants one item ever has in flight. */
export const ITEM_SHARDS = 16;

/** Where a take of an item's units starts looking (then in shard order, wrapping): spreads concurrent takes over the shards. */
export const randomItemShard = (): number => Math.floor(Math.random() * ITEM_SHARDS);

/** The item columns the API shows (`i` = inventory_items, `s` = its slot), its units granted summed over its shards. */
const ITEM_SELECT = `${ITEM_COLUMNS}, (SELECT COALESCE(SUM(sh.granted), 0)::int FROM inventory_item_shards sh WHERE sh.item_id = i.id) AS granted`;

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
   * Takes `quantity` units of the item's supply from its shards (an unlimited supply always allows
   * it); false when not enough is left. One round trip: the database function
   * `cgs_take_item_supply` (migrations/1795717161396-SupplyTakeFunctions.ts; its source as
   * PostgreSQL holds it: src/queries/database-functions.sql) takes them from one shard no other
   * transaction holds, starting at a random shard; only when there is none, it waits for the
   * holders in shard order (a rollback gives units back), then spreads several units over shards.
   * Never oversells: every shard's `granted` moves by a conditional UPDATE within its `cap`, and the
   * caps add up to the supply.
   */
  @GenerateSql({ params: [DUMMY.uuid, 1] })
  async takeSupply(itemId: string, quantity: number, em?: EntityManager): Promise<boolean> {
    const [r]: { taken: boolean }[] = await this.manager(em).query('SELECT cgs_take_item_supply($1::uuid, $2::int, $3::int) AS taken', [
      itemId,
      quantity,
      randomItemShard(),
    ]);
    return r.taken;
  }

  /** Writes the item's shards: `supply` (null: unlimited) split into ITEM_SHARDS shares, nothing granted. */
  @GenerateSql({ params: [DUMMY.uuid, 10] })
  async createShards(itemId: string, supply: number | null, em?: EntityManager): Promise<void> {
    await this.manager(em).query(
      `INSERT INTO inventory_item_shards (item_id, shard, cap, granted)
       SELECT $1, g, $2::int / $3 + CASE WHEN g < $2::int % $3 THEN 1 ELSE 0 END, 0 FROM generate_series(0, $3 - 1) AS g`,
      [itemId, supply, ITEM_SHARDS],
    );
  }

  /**
   * Refreshes the `granted` column from the shards (a summary: `SummaryFolds` calls this shortly
   * after grants commit). Only ever raises it, so an older fold that commits late cannot lower it.
   * Never waits for the row: false (nothing done) when another transaction holds it for an update
   * (a supply change); grants' key-share locks do not conflict with this one.
   */
  @GenerateSql({ params: [DUMMY.uuid] })
  async foldGranted(itemId: string, em?: EntityManager): Promise<boolean> {
    const [r]: { free: boolean }[] = await this.manager(em).query(
      `WITH target AS (SELECT id, granted FROM inventory_items WHERE id = $1 FOR NO KEY UPDATE SKIP LOCKED),
       t AS (SELECT COALESCE(SUM(granted), 0)::int AS granted FROM inventory_item_shards WHERE item_id = $1),
       folded AS (UPDATE inventory_items i SET granted = t.granted FROM target, t WHERE i.id = target.id AND target.granted < t.granted)
       SELECT EXISTS (SELECT 1 FROM target) AS free`,
      [itemId],
    );
    return r.free;
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
    return onConstraintViolation(() => repo.save(repo.create(slot)), {
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
        grantedFolded: 0,
      },
    ],
  })
  createItem(
    item: Pick<
      InventoryItem,
      'tenantId' | 'communityId' | 'slotId' | 'name' | 'description' | 'imageUrl' | 'rarity' | 'attributes' | 'supply' | 'grantedFolded'
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

  /** Locks the item row for the caller's transaction: grants (which hold a key-share lock on it from their first insert) wait, and it waits for those in flight. */
  @GenerateSql({ params: [DUMMY.uuid], inTransaction: true })
  async lockItem(itemId: string, em?: EntityManager): Promise<void> {
    await this.manager(em).query('SELECT 1 FROM inventory_items WHERE id = $1 FOR UPDATE', [itemId]);
  }

  /**
   * Sets the supply (null: unlimited) unless it would drop below the units granted, and gives each
   * shard its new share: its own `granted` plus an even part of what is left, so the caps add up
   * to the supply. Run under `lockItem` (no grant in flight). Returns the units granted and
   * whether the supply was set.
   */
  @GenerateSql({ params: [DUMMY.uuid, 10], inTransaction: true })
  async setSupply(itemId: string, supply: number | null, em?: EntityManager): Promise<{ set: boolean; granted: number }> {
    const [result]: { set: boolean; granted: number }[] = await this.manager(em).query(
      `WITH t AS (
         SELECT COALESCE(SUM(granted), 0)::int AS granted, COUNT(*)::int AS n FROM inventory_item_shards WHERE item_id = $1),
       item AS (
         UPDATE inventory_items i SET supply = $2, granted = GREATEST(i.granted, t.granted) FROM t
         WHERE i.id = $1 AND ($2::int IS NULL OR t.granted <= $2::int) RETURNING i.id),
       shards AS (
         UPDATE inventory_item_shards s
         SET cap = s.granted + ($2::int - t.granted) / t.n + CASE WHEN s.shard < ($2::int - t.granted) % t.n THEN 1 ELSE 0 END
         FROM t WHERE s.item_id = $1 AND EXISTS (SELECT 1 FROM item))
       SELECT EXISTS (SELECT 1 FROM item) AS set, (SELECT granted FROM t) AS granted`,
      [itemId, supply],
    );
    return { set: result.set, granted: result.granted };
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
      `SELECT ${ITEM_SELECT} FROM avatar_slots a JOIN inventory_items i ON i.id = a.item_id JOIN inventory_slots s ON s.id = i.slot_id
       WHERE a.tenant_id = $1 AND a.community_id = $2 AND a.user_id = $3`,
      [tenantId, communityId, userId],
    );
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async findItemRow(tenantId: string, communityId: string, itemId: string, em?: EntityManager): Promise<ItemRow | null> {
    const rows: ItemRow[] = await this.manager(em).query(
      `SELECT ${ITEM_SELECT} FROM inventory_items i JOIN inventory_slots s ON s.id = i.slot_id WHERE i.tenant_id = $1 AND i.community_id = $2 AND i.id = $3`,
      [tenantId, communityId, itemId],
    );
    return rows[0] ?? null;
  }

  /** A page of the community's items (optionally of one slot), by slot position, slot key, name and id (management). */
  @GenerateSql(
    { params: [DUMMY.tenant, DUMMY.uuid, undefined, DUMMY.page] },
    { name: 'ofSlot', params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, DUMMY.page] },
  )
  async itemsPage(
    tenantId: string,
    communityId: string,
    slotId: string | undefined,
    page: PageRequest,
    em?: EntityManager,
  ): Promise<{ rows: ItemRow[]; total: number }> {
    const manager = this.manager(em);
    const params: unknown[] = [tenantId, communityId];
    let where = 'i.tenant_id = $1 AND i.community_id = $2';
    if (slotId !== undefined) {
      params.push(slotId);
      where += ` AND i.slot_id = $${params.length}`;
    }
    return itemPage(manager, ITEM_SELECT, `FROM inventory_items i JOIN inventory_slots s ON s.id = i.slot_id WHERE ${where}`, params, page);
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
    return itemPage(
      manager,
      `${ITEM_SELECT}, COALESCE(ui.quantity, 0)::int AS owned, (a.item_id IS NOT NULL) AS allocated`,
      from,
      params,
      page,
    );
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

/** A page of items `from` (slots aliased `s`, items `i`) in the inventory's order, with the total. */
async function itemPage(
  manager: EntityManager,
  select: string,
  from: string,
  params: unknown[],
  page: PageRequest,
): Promise<{ rows: ItemRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    manager.query<ItemRow[]>(
      `SELECT ${select} ${from}
         ORDER BY s.position, s.key, i.name, i.id OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
      [...params, page.offset, page.limit],
    ),
    manager.query<{ n: number }[]>(`SELECT COUNT(*)::int AS n ${from}`, params),
  ]);
  return { rows, total: count[0].n };
}
