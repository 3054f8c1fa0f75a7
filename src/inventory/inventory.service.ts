import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainEvents, type PublishOptions } from '../common/events/domain-events.js';
import { SummaryFolds } from '../database/summary-folds.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { CommunitiesService } from '../communities/communities.service.js';
import type { Community } from '../communities/entities/community.entity.js';
import { NotificationsService, type NotifyInput } from '../notifications/notifications.service.js';
import { NotificationType } from '../notifications/notification-types.js';
import { UsersService } from '../users/users.service.js';
import { UserErrors } from '../users/users.errors.js';
import { planAllocation, type PlanItem } from './allocation.js';
import type { AllocateSlotsDto, InventoryDto } from './dto/inventory.dto.js';
import type { AdminHoldingDto, CreateItemDto, ItemDto, ItemGrantResultDto, UpdateItemDto, UserItemDto } from './dto/item.dto.js';
import type { CreateSlotDto, SlotDto, UpdateSlotDto, UserSlotDto } from './dto/slot.dto.js';
import type { InventoryItem } from './entities/inventory-item.entity.js';
import type { InventorySlot } from './entities/inventory-slot.entity.js';
import { AvatarRepository } from './avatar.repository.js';
import { InventoryErrors } from './inventory.errors.js';
import { rowToItemDto, rowToUserItemDto, toItemDto, toSlotDto } from './inventory.mappers.js';
import { HoldingsReadModel } from './holdings.read-model.js';
import { InventoryRepository } from './inventory.repository.js';
import type { ItemGranted } from './inventory.events.js';
import './inventory.events.js';
import { idOf, refOf, UUID_RE } from '../common/validation/uuid.js';

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
   * The caller takes the item's supply itself (the database function `cgs_take_item_supply`, in
   * its own statement) and fails its transaction when no supply is left: the store takes the
   * item's and the listing's supply in one round trip.
   */
  supplyTakenByCaller?: boolean;
  /**
   * false: no savepoint around the grant (two round trips less), for a caller that fails its
   * whole transaction on any error of the grant, so nothing of a refused grant can be committed.
   */
  savepoint?: boolean;
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
    private readonly repo: InventoryRepository,
    private readonly avatars: AvatarRepository,
    private readonly holdings: HoldingsReadModel,
    private readonly communities: CommunitiesService,
    private readonly users: UsersService,
    private readonly notifications: NotificationsService,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
    folds: SummaryFolds,
  ) {
    events.afterCommit('inventory.supply_taken', ({ itemId }) => folds.schedule(`item:${itemId}`, () => this.repo.foldGranted(itemId)));
  }

  // ---------------------------------------------------------------- grants (used by other modules)

  /**
   * Gives `quantity` units of an item to a user, INSIDE THE CALLER'S TRANSACTION (`em`): the store,
   * quests and events call it in the same transaction as the payment or claim, so the item exists
   * if and only if that commits. Also notifies the user (`item_granted`) in that transaction.
   *
   * - Supply is respected atomically: a conditional `UPDATE ... WHERE granted + q <= cap` of one of
   *   the item's shards (whose caps add up to the supply): concurrent grants of one item lock
   *   different shards and never oversell.
   * - Throws `DomainError` 404 `item_not_found` / `user_not_found` (other tenant included), 409
   *   `supply_exhausted`, 409 `grant_idempotency_key_reused`. The grant runs in a savepoint, so a
   *   refused grant leaves nothing behind even when the caller catches the error and commits.
   * - With `idempotencyKey`, a replay returns the first grant with `replayed: true`.
   */
  async grantItem(em: EntityManager, input: GrantItemInput): Promise<GrantItemResult> {
    if (!Number.isSafeInteger(input.quantity) || input.quantity < 1) throw new Error('grantItem: quantity must be a positive integer');
    // A savepoint inside the caller's transaction (or a transaction of its own): a refused grant
    // leaves nothing behind even if the caller catches the error and goes on.
    return input.savepoint === false ? this.grantInTransaction(em, input) : em.transaction((tx) => this.grantInTransaction(tx, input));
  }

  private async grantInTransaction(em: EntityManager, input: GrantItemInput): Promise<GrantItemResult> {
    const { tenantId, userId, itemId } = input;
    const id = idOf(itemId);
    const item = id ? await this.repo.findGrantItem(tenantId, id, em) : null;
    if (!item) throw new DomainError(InventoryErrors.item_not_found, `No item ${itemId.slice(0, 64)} in this tenant`);
    const userExists = idOf(userId) !== null && (await this.users.exists(tenantId, userId, em));
    if (!userExists) throw new DomainError(UserErrors.user_not_found, `No user ${userId.slice(0, 64)} in this tenant`);
    const now = this.clock.now();

    const grantId = await this.repo.insertGrant(
      tenantId,
      {
        userId,
        itemId: item.id,
        quantity: input.quantity,
        reason: input.reason,
        reference: input.reference ?? null,
        idempotencyKey: input.idempotencyKey ?? null,
        now,
      },
      em,
    );
    if (grantId === null) {
      // Nothing inserted: the key was used before, so that grant exists.
      const first = (await this.repo.findGrantByIdempotencyKey(tenantId, input.idempotencyKey!, em))!;
      if (first.user_id !== userId || first.item_id !== item.id || first.quantity !== input.quantity) {
        throw new DomainError(InventoryErrors.grant_idempotency_key_reused, 'This idempotency key was used for another grant');
      }
      return {
        grantId: first.id,
        userId,
        itemId: item.id,
        communityId: item.community_id,
        quantity: first.quantity,
        ownedQuantity: await this.repo.ownedQuantity(userId, item.id, em),
        replayed: true,
      };
    }

    if (!input.supplyTakenByCaller && !(await this.repo.takeSupply(item.id, input.quantity, em))) {
      throw new DomainError(InventoryErrors.supply_exhausted, `Not enough supply left of "${item.name}" for ${input.quantity} more`);
    }
    await this.events.publish(em, 'inventory.supply_taken', { itemId: item.id });
    await this.events.publish(em, 'inventory.item_granted', {
      tenantId,
      grantId,
      itemId: item.id,
      communityId: item.community_id,
      userId,
      quantity: input.quantity,
      reason: input.reason,
      reference: input.reference ?? null,
    });

    const owned = await this.repo.addUserItems(tenantId, userId, item.id, item.community_id, input.quantity, now, em);
    await this.notifications.notify(
      em,
      this.grantNotification(
        tenantId,
        userId,
        { id: item.id, communityId: item.community_id, slotId: item.slot_id, name: item.name },
        input.quantity,
      ),
    );
    return {
      grantId,
      userId,
      itemId: item.id,
      communityId: item.community_id,
      quantity: input.quantity,
      ownedQuantity: owned,
      replayed: false,
    };
  }

  /** The `item_granted` notification of a grant (written by `grantItem`, or by a caller that writes the grant itself). */
  grantNotification(
    tenantId: string,
    userId: string,
    item: { id: string; communityId: string; slotId: string; name: string },
    quantity: number,
  ): NotifyInput {
    return {
      tenantId,
      userId,
      communityId: item.communityId,
      type: NotificationType.ItemGranted,
      title: quantity === 1 ? `You received ${item.name}` : `You received ${quantity} × ${item.name}`,
      data: { itemId: item.id, slotId: item.slotId, quantity },
    };
  }

  /** The domain event types `grantedByCaller` publishes. */
  readonly callerGrantEvents = ['inventory.supply_taken', 'inventory.item_granted'] as const;

  /**
   * For a caller that wrote a grant of a store purchase in its own statement (the store's
   * `store_purchase_item` function, through inventory's `cgs_grant_item` and `cgs_take_item_supply`:
   * the grant's record, the holding, the supply shards): publishes what `grantItem` publishes, in `em`'s transaction, or, outside one,
   * once that statement committed.
   */
  async grantedByCaller(em: EntityManager, grant: ItemGranted, options?: PublishOptions): Promise<void> {
    await this.events.publish(em, 'inventory.supply_taken', { itemId: grant.itemId }, options);
    await this.events.publish(em, 'inventory.item_granted', grant, options);
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

  // ---------------------------------------------------------------- slots and items (management)

  async createSlot(tenantId: string, dto: CreateSlotDto): Promise<SlotDto> {
    const community = await this.communities.resolve(tenantId, dto.communityId);
    if (UUID_RE.test(dto.key)) throw new DomainError(InventoryErrors.invalid_slot_key, 'A slot key cannot look like a uuid');
    const slot = await this.repo.createSlot({
      tenantId,
      communityId: community.id,
      key: dto.key,
      name: dto.name,
      description: dto.description ?? '',
      position: dto.position ?? 0,
    });
    return toSlotDto(slot);
  }

  async updateSlot(tenantId: string, slotId: string, dto: UpdateSlotDto): Promise<SlotDto> {
    const id = idOf(slotId);
    const slot = id ? await this.repo.findSlotById(tenantId, id) : null;
    if (!slot) throw new DomainError(InventoryErrors.slot_not_found, `No slot ${slotId.slice(0, 64)} in this tenant`);
    if (dto.name !== undefined) slot.name = dto.name;
    if (dto.description !== undefined) slot.description = dto.description;
    if (dto.position !== undefined) slot.position = dto.position;
    return toSlotDto(await this.repo.saveSlot(slot));
  }

  async createItem(tenantId: string, dto: CreateItemDto): Promise<ItemDto> {
    const community = await this.communities.resolve(tenantId, dto.communityId);
    const slot = await this.resolveSlot(tenantId, community.id, dto.slotId);
    // The item and its supply shards, together.
    const item = await this.dataSource.transaction(async (em) => {
      const created = await this.repo.createItem(
        {
          tenantId,
          communityId: community.id,
          slotId: slot.id,
          name: dto.name,
          description: dto.description ?? '',
          imageUrl: dto.imageUrl ?? null,
          rarity: dto.rarity ?? 'common',
          attributes: (dto.attributes ?? []).map((a) => ({ traitType: a.traitType, value: a.value })),
          supply: dto.supply ?? null,
          grantedFolded: 0,
        },
        em,
      );
      await this.repo.createShards(created.id, created.supply, em);
      return created;
    });
    return toItemDto(item, slot.key);
  }

  /**
   * Changes an item. A supply change locks the item row (grants in flight finish first, new ones
   * wait), refuses a supply below the units granted, and gives every shard its new share.
   */
  async updateItem(tenantId: string, itemId: string, dto: UpdateItemDto): Promise<ItemDto> {
    const id = idOf(itemId);
    const item = id ? await this.repo.findItemById(tenantId, id) : null;
    if (!item) throw new DomainError(InventoryErrors.item_not_found, `No item ${itemId.slice(0, 64)} in this tenant`);
    const changes: Partial<Pick<InventoryItem, 'name' | 'description' | 'imageUrl' | 'rarity' | 'attributes'>> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.imageUrl !== undefined) changes.imageUrl = dto.imageUrl;
    if (dto.rarity !== undefined) changes.rarity = dto.rarity;
    if (dto.attributes !== undefined) changes.attributes = dto.attributes.map((a) => ({ traitType: a.traitType, value: a.value }));
    await this.dataSource.transaction(async (em) => {
      if (dto.supply !== undefined) await this.repo.lockItem(item.id, em);
      if (Object.keys(changes).length > 0) await this.repo.updateItem(tenantId, item.id, changes, em);
      if (dto.supply !== undefined) {
        const result = await this.repo.setSupply(item.id, dto.supply, em);
        if (!result.set)
          throw new DomainError(
            InventoryErrors.supply_below_granted,
            `Supply ${dto.supply} is below the ${result.granted} units already granted`,
          );
      }
    });
    return this.item(tenantId, item.communityId, item.id);
  }

  // ---------------------------------------------------------------- reads

  /** A slot of the community by id or key (case-insensitive); 404 otherwise. */
  async resolveSlot(tenantId: string, communityId: string, ref: string): Promise<InventorySlot> {
    const key = refOf(ref);
    const slot = !key
      ? null
      : 'id' in key
        ? await this.repo.findCommunitySlotById(tenantId, communityId, key.id)
        : await this.repo.findSlotByKey(tenantId, communityId, key.key);
    if (!slot) throw new DomainError(InventoryErrors.slot_not_found, `No slot "${ref.slice(0, 64)}" in this community`);
    return slot;
  }

  /** The community's slots and item count, and the current user's summary. */
  async inventory(tenantId: string, ckey: string, userId: string): Promise<InventoryDto> {
    const community = await this.communities.resolve(tenantId, ckey);
    const slots = await this.repo.slotsOf(tenantId, community.id);
    const counts = await this.repo.counts(tenantId, community.id, userId);
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
    const slots = await this.repo.slotsOf(tenantId, community.id);
    const rows = await this.repo.allocatedItems(tenantId, community.id, userId);
    const bySlot = new Map(rows.map((r) => [r.slot_id, rowToItemDto(r)]));
    return { community, slots: slots.map((s) => ({ ...toSlotDto(s), item: bySlot.get(s.id) ?? null })) };
  }

  async item(tenantId: string, ckey: string, itemId: string): Promise<ItemDto> {
    const community = await this.communities.resolve(tenantId, ckey);
    const id = idOf(itemId);
    const row = id ? await this.repo.findItemRow(tenantId, community.id, id) : null;
    if (!row) throw new DomainError(InventoryErrors.item_not_found, `No item ${itemId.slice(0, 64)} in this community`);
    return rowToItemDto(row);
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
    const slotId = filter.slotRef !== undefined ? (await this.resolveSlot(tenantId, community.id, filter.slotRef)).id : undefined;
    const { rows, total } = await this.repo.userItemsPage(
      tenantId,
      community.id,
      userId,
      { ...(slotId !== undefined ? { slotId } : {}), onlyOwned: filter.onlyOwned },
      page,
    );
    return toPage(rows.map(rowToUserItemDto), total, page);
  }

  /** The community's slots by position and key (management). */
  async adminSlots(tenantId: string, communityRef: string): Promise<SlotDto[]> {
    const community = await this.communities.resolve(tenantId, communityRef);
    return (await this.repo.slotsOf(tenantId, community.id)).map(toSlotDto);
  }

  /** The community's items (optionally of one slot: id or key) with their supply and units granted (management), paged. */
  async adminItems(tenantId: string, communityRef: string, slotRef: string | undefined, page: PageRequest): Promise<Page<ItemDto>> {
    const community = await this.communities.resolve(tenantId, communityRef);
    const slotId = slotRef !== undefined ? (await this.resolveSlot(tenantId, community.id, slotRef)).id : undefined;
    const { rows, total } = await this.repo.itemsPage(tenantId, community.id, slotId, page);
    return toPage(rows.map(rowToItemDto), total, page);
  }

  /** What a player holds in every community of the tenant (management), paged. 404 for an unknown user. */
  async adminHoldings(tenantId: string, userId: string, page: PageRequest): Promise<Page<AdminHoldingDto>> {
    await this.users.getById(tenantId, userId);
    const { rows, total } = await this.holdings.holdingsPage(tenantId, userId, page);
    return toPage(
      rows.map((r) => ({
        communityId: r.community_id,
        communitySlug: r.community_slug,
        itemId: r.item_id,
        name: r.name,
        slotKey: r.slot_key,
        rarity: r.rarity,
        imageUrl: r.image_url,
        quantity: r.quantity,
        allocated: r.allocated,
        avatarMintStatus: r.allocated ? r.avatar_mint_status : null,
        acquiredAt: new Date(r.acquired_at).toISOString(),
      })),
      total,
      page,
    );
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
      await this.avatars.ensure(tenantId, community.id, userId, now, em);
      await this.avatars.lock(tenantId, community.id, userId, em);
      const slots = await this.repo.allSlotsOf(tenantId, community.id, em);
      const itemIds = [...new Set(dto.slots.map((s) => s.itemId?.toLowerCase()).filter((id): id is string => !!id))];
      const itemRows = itemIds.length === 0 ? [] : await this.repo.itemsOwned(tenantId, community.id, userId, itemIds, em);
      const items = new Map<string, PlanItem>(itemRows.map((r) => [r.id, { id: r.id, slotId: r.slot_id, owned: r.owned }]));
      const current = await this.avatars.allocation(tenantId, community.id, userId, em);
      const changes = planAllocation(dto.slots, slots, items, current);
      if (changes.length === 0) return;
      for (const c of changes) {
        if (c.itemId === null) await this.avatars.clearSlot(tenantId, userId, c.slotId, em);
        else await this.avatars.setSlot(tenantId, community.id, userId, c.slotId, c.itemId, now, em);
      }
      await this.avatars.bumpVersion(tenantId, community.id, userId, now, em);
    });
  }
}
