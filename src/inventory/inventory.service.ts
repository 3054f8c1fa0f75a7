import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { CommunitiesService, UUID_RE } from '../communities/communities.service.js';
import type { Community } from '../communities/entities/community.entity.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { NotificationType } from '../notifications/notification-types.js';
import { UsersService } from '../users/users.service.js';
import { UserErrors } from '../users/users.errors.js';
import { planAllocation, type PlanItem } from './allocation.js';
import type { AllocateSlotsDto, InventoryDto } from './dto/inventory.dto.js';
import type { CreateItemDto, ItemDto, ItemGrantResultDto, UpdateItemDto, UserItemDto } from './dto/item.dto.js';
import type { CreateSlotDto, SlotDto, UpdateSlotDto, UserSlotDto } from './dto/slot.dto.js';
import { InventoryItem } from './entities/inventory-item.entity.js';
import { InventorySlot } from './entities/inventory-slot.entity.js';
import { InventoryErrors } from './inventory.errors.js';
import { ITEM_COLUMNS, type ItemRow, rowToItemDto, rowToUserItemDto, toItemDto, toSlotDto } from './inventory.mappers.js';

/** What `InventoryService.grantItem` needs. */
export interface GrantItemInput {
  tenantId: string;
  userId: string;
  itemId: string;
  /** Units to add (a positive integer). */
  quantity: number;
  /** Why, e.g. `store_purchase`, `quest_reward` (1-64 characters). Kept in the item ledger. */
  reason: string;
  /** What it refers to, e.g. a purchase or claim id (at most 200 characters). */
  reference?: string | null;
  /** Optional, unique per tenant: a second grant with the same key changes nothing (replay). */
  idempotencyKey?: string | null;
  /**
   * The caller takes the item's supply itself, with `supplySql` in the last statement of its
   * transaction, and fails the transaction when that takes nothing. For callers that sell one item
   * many times a second (the store): the item row every grant updates is then locked only from that
   * statement to the commit, not across the caller's remaining statements.
   */
  supplyTakenByCaller?: boolean;
}

export interface GrantItemResult {
  grantId: string;
  userId: string;
  itemId: string;
  communityId: string;
  quantity: number;
  /** Units the user owns after the grant. */
  ownedQuantity: number;
  /** true when `idempotencyKey` had been used before: nothing was granted. */
  replayed: boolean;
}

/** Slots, items, holdings and the avatar of a community. */
@Injectable()
export class InventoryService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly communities: CommunitiesService,
    private readonly users: UsersService,
    private readonly notifications: NotificationsService,
    private readonly clock: Clock,
  ) {}

  // ---------------------------------------------------------------- grants (used by other modules)

  /**
   * Gives `quantity` units of an item to a user, INSIDE THE CALLER'S TRANSACTION (`em`): the store,
   * quests and events call it in the same transaction as the payment or claim, so the item exists
   * if and only if that commits. Also notifies the user (`item_granted`) in that transaction.
   *
   * - Supply is respected atomically: one conditional `UPDATE ... WHERE granted + q <= supply`;
   *   concurrent grants of the same item serialise on that row and never oversell.
   * - Throws `DomainError` 404 `item_not_found` / `user_not_found` (other tenant included), 409
   *   `supply_exhausted`, 409 `grant_idempotency_key_reused`. The grant runs in a savepoint, so a
   *   refused grant leaves nothing behind even when the caller catches the error and commits.
   * - With `idempotencyKey`, a replay returns the first grant with `replayed: true`.
   */
  async grantItem(em: EntityManager, input: GrantItemInput): Promise<GrantItemResult> {
    if (!Number.isSafeInteger(input.quantity) || input.quantity < 1) throw new Error('grantItem: quantity must be a positive integer');
    // A savepoint inside the caller's transaction (or a transaction of its own): a refused grant
    // leaves nothing behind even if the caller catches the error and goes on.
    return em.transaction((tx) => this.grantInTransaction(tx, input));
  }

  private async grantInTransaction(em: EntityManager, input: GrantItemInput): Promise<GrantItemResult> {
    const { tenantId, userId, itemId } = input;
    const items: { id: string; community_id: string; slot_id: string; name: string }[] = UUID_RE.test(itemId)
      ? await em.query('SELECT id, community_id, slot_id, name FROM inventory_items WHERE id = $1 AND tenant_id = $2', [
          itemId.toLowerCase(),
          tenantId,
        ])
      : [];
    if (items.length === 0) throw new DomainError(InventoryErrors.item_not_found, `No item ${itemId.slice(0, 64)} in this tenant`);
    const item = items[0];
    const users: unknown[] = UUID_RE.test(userId)
      ? await em.query('SELECT 1 FROM users WHERE id = $1 AND tenant_id = $2', [userId, tenantId])
      : [];
    if (users.length === 0) throw new DomainError(UserErrors.user_not_found, `No user ${userId.slice(0, 64)} in this tenant`);
    const now = this.clock.now();

    const inserted: { id: string }[] = await em.query(
      `INSERT INTO item_grants (tenant_id, user_id, item_id, quantity, reason, reference, idempotency_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id`,
      [tenantId, userId, item.id, input.quantity, input.reason, input.reference ?? null, input.idempotencyKey ?? null, now],
    );
    if (inserted.length === 0) {
      const [first]: { id: string; user_id: string; item_id: string; quantity: number }[] = await em.query(
        'SELECT id, user_id, item_id, quantity FROM item_grants WHERE tenant_id = $1 AND idempotency_key = $2',
        [tenantId, input.idempotencyKey],
      );
      if (first.user_id !== userId || first.item_id !== item.id || first.quantity !== input.quantity) {
        throw new DomainError(InventoryErrors.grant_idempotency_key_reused, 'This idempotency key was used for another grant');
      }
      return {
        grantId: first.id,
        userId,
        itemId: item.id,
        communityId: item.community_id,
        quantity: first.quantity,
        ownedQuantity: await this.ownedQuantity(em, userId, item.id),
        replayed: true,
      };
    }

    if (!input.supplyTakenByCaller) {
      // TypeORM answers an UPDATE with [rows, affected].
      const [, supplied]: [unknown[], number] = await em.query(this.supplySql('$1', '$2'), [item.id, input.quantity]);
      if (supplied === 0)
        throw new DomainError(InventoryErrors.supply_exhausted, `Not enough supply left of "${item.name}" for ${input.quantity} more`);
    }

    const [owned]: { quantity: number }[] = await em.query(
      `INSERT INTO user_items (user_id, item_id, tenant_id, community_id, quantity, acquired_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (user_id, item_id) DO UPDATE SET quantity = user_items.quantity + EXCLUDED.quantity, updated_at = EXCLUDED.updated_at RETURNING quantity`,
      [userId, item.id, tenantId, item.community_id, input.quantity, now],
    );
    await this.notifications.notify(em, {
      tenantId,
      userId,
      communityId: item.community_id,
      type: NotificationType.ItemGranted,
      title: input.quantity === 1 ? `You received ${item.name}` : `You received ${input.quantity} × ${item.name}`,
      data: { itemId: item.id, slotId: item.slot_id, quantity: input.quantity },
    });
    return {
      grantId: inserted[0].id,
      userId,
      itemId: item.id,
      communityId: item.community_id,
      quantity: input.quantity,
      ownedQuantity: owned.quantity,
      replayed: false,
    };
  }

  /**
   * SQL that takes `quantity` units of the item's supply (both SQL expressions, e.g. placeholders):
   * one row when the supply allowed it (an unlimited supply always does), none when not.
   */
  supplySql(itemId: string, quantity: string): string {
    return `UPDATE inventory_items SET granted = granted + ${quantity} WHERE id = ${itemId} AND (supply IS NULL OR granted + ${quantity} <= supply) RETURNING id`;
  }

  /** Management grant: `grantItem` in its own transaction. */
  async adminGrant(
    tenantId: string,
    dto: { userId: string; itemId: string; quantity?: number; reason: string; reference?: string; idempotencyKey?: string },
  ): Promise<ItemGrantResultDto> {
    const r = await this.dataSource.transaction((em) => this.grantItem(em, { tenantId, ...dto, quantity: dto.quantity ?? 1 }));
    return {
      grantId: r.grantId,
      userId: r.userId,
      itemId: r.itemId,
      quantity: r.quantity,
      ownedQuantity: r.ownedQuantity,
      replayed: r.replayed,
    };
  }

  private async ownedQuantity(em: EntityManager, userId: string, itemId: string): Promise<number> {
    const rows: { quantity: number }[] = await em.query('SELECT quantity FROM user_items WHERE user_id = $1 AND item_id = $2', [
      userId,
      itemId,
    ]);
    return rows[0]?.quantity ?? 0;
  }

  // ---------------------------------------------------------------- slots and items (management)

  async createSlot(tenantId: string, dto: CreateSlotDto): Promise<SlotDto> {
    const community = await this.communities.resolve(tenantId, dto.communityId);
    if (UUID_RE.test(dto.key)) throw new DomainError(InventoryErrors.invalid_slot_key, 'A slot key cannot look like a uuid');
    const repo = this.dataSource.getRepository(InventorySlot);
    try {
      const slot = await repo.save(
        repo.create({
          tenantId,
          communityId: community.id,
          key: dto.key,
          name: dto.name,
          description: dto.description ?? '',
          position: dto.position ?? 0,
        }),
      );
      return toSlotDto(slot);
    } catch (e) {
      if (e instanceof QueryFailedError && (e.driverError as { constraint?: string }).constraint === 'uq_inventory_slots_community_key') {
        throw new DomainError(InventoryErrors.slot_key_taken, `The community already has a slot "${dto.key}"`);
      }
      throw e;
    }
  }

  async updateSlot(tenantId: string, slotId: string, dto: UpdateSlotDto): Promise<SlotDto> {
    const repo = this.dataSource.getRepository(InventorySlot);
    const slot = UUID_RE.test(slotId) ? await repo.findOneBy({ tenantId, id: slotId.toLowerCase() }) : null;
    if (!slot) throw new DomainError(InventoryErrors.slot_not_found, `No slot ${slotId.slice(0, 64)} in this tenant`);
    if (dto.name !== undefined) slot.name = dto.name;
    if (dto.description !== undefined) slot.description = dto.description;
    if (dto.position !== undefined) slot.position = dto.position;
    return toSlotDto(await repo.save(slot));
  }

  async createItem(tenantId: string, dto: CreateItemDto): Promise<ItemDto> {
    const community = await this.communities.resolve(tenantId, dto.communityId);
    const slot = await this.resolveSlot(tenantId, community.id, dto.slotId);
    const repo = this.dataSource.getRepository(InventoryItem);
    const item = await repo.save(
      repo.create({
        tenantId,
        communityId: community.id,
        slotId: slot.id,
        name: dto.name,
        description: dto.description ?? '',
        imageUrl: dto.imageUrl ?? null,
        rarity: dto.rarity ?? 'common',
        attributes: (dto.attributes ?? []).map((a) => ({ traitType: a.traitType, value: a.value })),
        supply: dto.supply ?? null,
        granted: 0,
      }),
    );
    return toItemDto(item, slot.key);
  }

  /** Changes an item; a lower supply is applied with a conditional UPDATE so it never drops below `granted`. */
  async updateItem(tenantId: string, itemId: string, dto: UpdateItemDto): Promise<ItemDto> {
    const repo = this.dataSource.getRepository(InventoryItem);
    const item = UUID_RE.test(itemId) ? await repo.findOneBy({ tenantId, id: itemId.toLowerCase() }) : null;
    if (!item) throw new DomainError(InventoryErrors.item_not_found, `No item ${itemId.slice(0, 64)} in this tenant`);
    const changes: Partial<Pick<InventoryItem, 'name' | 'description' | 'imageUrl' | 'rarity' | 'attributes'>> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.imageUrl !== undefined) changes.imageUrl = dto.imageUrl;
    if (dto.rarity !== undefined) changes.rarity = dto.rarity;
    if (dto.attributes !== undefined) changes.attributes = dto.attributes.map((a) => ({ traitType: a.traitType, value: a.value }));
    await this.dataSource.transaction(async (em) => {
      if (Object.keys(changes).length > 0) await em.getRepository(InventoryItem).update({ id: item.id, tenantId }, changes);
      if (dto.supply !== undefined) {
        const res: [unknown[], number] = await em.query(
          'UPDATE inventory_items SET supply = $2 WHERE id = $1 AND ($2::int IS NULL OR granted <= $2::int)',
          [item.id, dto.supply],
        );
        if (res[1] === 0)
          throw new DomainError(
            InventoryErrors.supply_below_granted,
            `Supply ${dto.supply} is below the ${item.granted} units already granted`,
          );
      }
    });
    return this.item(tenantId, item.communityId, item.id);
  }

  // ---------------------------------------------------------------- reads

  /** A slot of the community by id or key (case-insensitive); 404 otherwise. */
  async resolveSlot(tenantId: string, communityId: string, ref: string): Promise<InventorySlot> {
    const key = ref.trim().toLowerCase();
    const repo = this.dataSource.getRepository(InventorySlot);
    const slot =
      key.length > 64
        ? null
        : await repo.findOneBy(UUID_RE.test(key) ? { tenantId, communityId, id: key } : { tenantId, communityId, key });
    if (!slot) throw new DomainError(InventoryErrors.slot_not_found, `No slot "${ref.slice(0, 64)}" in this community`);
    return slot;
  }

  private slotsOf(tenantId: string, communityId: string): Promise<InventorySlot[]> {
    return this.dataSource.getRepository(InventorySlot).find({ where: { tenantId, communityId }, order: { position: 'ASC', key: 'ASC' } });
  }

  /** The community's slots and item count, and the current user's summary. */
  async inventory(tenantId: string, ckey: string, userId: string): Promise<InventoryDto> {
    const community = await this.communities.resolve(tenantId, ckey);
    const slots = await this.slotsOf(tenantId, community.id);
    const [counts]: { items: number; owned: number; total: number; allocated: number; version: number | null }[] =
      await this.dataSource.query(
        `SELECT (SELECT COUNT(*)::int FROM inventory_items WHERE tenant_id = $1 AND community_id = $2) AS items,
              (SELECT COUNT(*)::int FROM user_items WHERE tenant_id = $1 AND community_id = $2 AND user_id = $3) AS owned,
              (SELECT COALESCE(SUM(quantity), 0)::int FROM user_items WHERE tenant_id = $1 AND community_id = $2 AND user_id = $3) AS total,
              (SELECT COUNT(*)::int FROM avatar_slots WHERE tenant_id = $1 AND community_id = $2 AND user_id = $3) AS allocated,
              (SELECT version FROM avatars WHERE tenant_id = $1 AND community_id = $2 AND user_id = $3) AS version`,
        [tenantId, community.id, userId],
      );
    return {
      communityId: community.id,
      slots: slots.map(toSlotDto),
      itemCount: counts.items,
      user: {
        userId,
        ownedItems: counts.owned,
        totalQuantity: counts.total,
        allocatedSlots: counts.allocated,
        avatarVersion: counts.version ?? 0,
      },
    };
  }

  /** Every slot of the community with what `userId` has allocated. */
  async userSlots(tenantId: string, ckey: string, userId: string): Promise<{ community: Community; slots: UserSlotDto[] }> {
    const community = await this.communities.resolve(tenantId, ckey);
    await this.users.getById(tenantId, userId);
    const slots = await this.slotsOf(tenantId, community.id);
    const rows: ItemRow[] = await this.dataSource.query(
      `SELECT ${ITEM_COLUMNS} FROM avatar_slots a JOIN inventory_items i ON i.id = a.item_id JOIN inventory_slots s ON s.id = i.slot_id
       WHERE a.tenant_id = $1 AND a.community_id = $2 AND a.user_id = $3`,
      [tenantId, community.id, userId],
    );
    const bySlot = new Map(rows.map((r) => [r.slot_id, rowToItemDto(r)]));
    return { community, slots: slots.map((s) => ({ ...toSlotDto(s), item: bySlot.get(s.id) ?? null })) };
  }

  async item(tenantId: string, ckey: string, itemId: string): Promise<ItemDto> {
    const community = await this.communities.resolve(tenantId, ckey);
    const rows: ItemRow[] = UUID_RE.test(itemId)
      ? await this.dataSource.query(
          `SELECT ${ITEM_COLUMNS} FROM inventory_items i JOIN inventory_slots s ON s.id = i.slot_id WHERE i.tenant_id = $1 AND i.community_id = $2 AND i.id = $3`,
          [tenantId, community.id, itemId.toLowerCase()],
        )
      : [];
    if (rows.length === 0) throw new DomainError(InventoryErrors.item_not_found, `No item ${itemId.slice(0, 64)} in this community`);
    return rowToItemDto(rows[0]);
  }

  /**
   * Items of the community (optionally of one slot) with what `userId` owns of each; with
   * `onlyOwned`, only those the user owns. Ordered by slot position, slot key, item name, id.
   */
  async userItems(
    tenantId: string,
    ckey: string,
    userId: string,
    filter: { slotRef?: string; onlyOwned: boolean },
    page: PageRequest,
  ): Promise<Page<UserItemDto>> {
    const community = await this.communities.resolve(tenantId, ckey);
    await this.users.getById(tenantId, userId);
    const params: unknown[] = [tenantId, community.id, userId];
    let where = 'i.tenant_id = $1 AND i.community_id = $2';
    if (filter.slotRef !== undefined) {
      const slot = await this.resolveSlot(tenantId, community.id, filter.slotRef);
      params.push(slot.id);
      where += ` AND i.slot_id = $${params.length}`;
    }
    if (filter.onlyOwned) where += ' AND ui.quantity > 0';
    const from = `FROM inventory_items i JOIN inventory_slots s ON s.id = i.slot_id
      LEFT JOIN user_items ui ON ui.item_id = i.id AND ui.user_id = $3
      LEFT JOIN avatar_slots a ON a.user_id = $3 AND a.slot_id = i.slot_id AND a.item_id = i.id
      WHERE ${where}`;
    const [rows, count] = await Promise.all([
      this.dataSource.query<ItemRow[]>(
        `SELECT ${ITEM_COLUMNS}, COALESCE(ui.quantity, 0)::int AS owned, (a.item_id IS NOT NULL) AS allocated ${from}
         ORDER BY s.position, s.key, i.name, i.id OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
        [...params, page.offset, page.limit],
      ),
      this.dataSource.query<{ n: number }[]>(`SELECT COUNT(*)::int AS n ${from}`, params),
    ]);
    return toPage(rows.map(rowToUserItemDto), count[0].n, page);
  }

  // ---------------------------------------------------------------- allocation

  /**
   * Sets several slots of the user's avatar at once, all or nothing (see `planAllocation`). The
   * avatar row is locked for the transaction, so concurrent allocations of one user serialise;
   * the avatar version grows by one when something changed.
   */
  async allocate(tenantId: string, ckey: string, userId: string, dto: AllocateSlotsDto): Promise<void> {
    const community = await this.communities.resolve(tenantId, ckey);
    await this.dataSource.transaction(async (em) => {
      const now = this.clock.now();
      await em.query(
        `INSERT INTO avatars (community_id, user_id, tenant_id, version, updated_at) VALUES ($1, $2, $3, 0, $4) ON CONFLICT (community_id, user_id) DO NOTHING`,
        [community.id, userId, tenantId, now],
      );
      await em.query('SELECT version FROM avatars WHERE community_id = $1 AND user_id = $2 FOR UPDATE', [community.id, userId]);
      const slots = await em.getRepository(InventorySlot).find({ where: { tenantId, communityId: community.id } });
      const itemIds = [...new Set(dto.slots.map((s) => s.itemId?.toLowerCase()).filter((id): id is string => !!id))];
      const itemRows: { id: string; slot_id: string; owned: number }[] =
        itemIds.length === 0
          ? []
          : await em.query(
              `SELECT i.id, i.slot_id, COALESCE(ui.quantity, 0)::int AS owned FROM inventory_items i
               LEFT JOIN user_items ui ON ui.item_id = i.id AND ui.user_id = $3
               WHERE i.tenant_id = $1 AND i.community_id = $2 AND i.id = ANY($4::uuid[])`,
              [tenantId, community.id, userId, itemIds],
            );
      const items = new Map<string, PlanItem>(itemRows.map((r) => [r.id, { id: r.id, slotId: r.slot_id, owned: r.owned }]));
      const currentRows: { slot_id: string; item_id: string }[] = await em.query(
        'SELECT slot_id, item_id FROM avatar_slots WHERE community_id = $1 AND user_id = $2',
        [community.id, userId],
      );
      const changes = planAllocation(dto.slots, slots, items, new Map(currentRows.map((r) => [r.slot_id, r.item_id])));
      if (changes.length === 0) return;
      for (const c of changes) {
        if (c.itemId === null) {
          await em.query('DELETE FROM avatar_slots WHERE user_id = $1 AND slot_id = $2', [userId, c.slotId]);
        } else {
          await em.query(
            `INSERT INTO avatar_slots (user_id, slot_id, item_id, tenant_id, community_id, allocated_at) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (user_id, slot_id) DO UPDATE SET item_id = EXCLUDED.item_id, allocated_at = EXCLUDED.allocated_at`,
            [userId, c.slotId, c.itemId, tenantId, community.id, now],
          );
        }
      }
      await em.query('UPDATE avatars SET version = version + 1, updated_at = $3 WHERE community_id = $1 AND user_id = $2', [
        community.id,
        userId,
        now,
      ]);
    });
  }
}
