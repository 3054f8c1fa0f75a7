import type { ItemDto, UserItemDto } from './dto/item.dto.js';
import type { SlotDto } from './dto/slot.dto.js';
import type { InventoryItem, ItemAttribute } from './entities/inventory-item.entity.js';
import type { InventorySlot } from './entities/inventory-slot.entity.js';

export function toSlotDto(s: Pick<InventorySlot, 'id' | 'key' | 'name' | 'description' | 'position'>): SlotDto {
  return { id: s.id, key: s.key, name: s.name, description: s.description, position: s.position };
}

/** A new item (nothing granted yet). */
export function toItemDto(i: InventoryItem, slotKey: string): ItemDto {
  return {
    id: i.id,
    communityId: i.communityId,
    slotId: i.slotId,
    slotKey,
    name: i.name,
    description: i.description,
    imageUrl: i.imageUrl,
    rarity: i.rarity,
    attributes: i.attributes.map((a) => ({ traitType: a.traitType, value: a.value })),
    supply: i.supply,
    granted: 0,
    remaining: i.supply,
  };
}

/** A row of the item queries (snake_case columns of inventory_items plus joined fields). */
export interface ItemRow {
  id: string;
  community_id: string;
  slot_id: string;
  slot_key: string;
  name: string;
  description: string;
  image_url: string | null;
  rarity: string;
  attributes: ItemAttribute[];
  supply: number | null;
  granted: number;
  owned?: number;
  allocated?: boolean;
}

/** The item's own columns of an ItemRow (`granted` is summed from its shards by the repository). */
export const ITEM_COLUMNS = `i.id, i.community_id, i.slot_id, s.key AS slot_key, i.name, i.description, i.image_url, i.rarity, i.attributes, i.supply`;

export function rowToItemDto(r: ItemRow): ItemDto {
  return {
    id: r.id,
    communityId: r.community_id,
    slotId: r.slot_id,
    slotKey: r.slot_key,
    name: r.name,
    description: r.description,
    imageUrl: r.image_url,
    rarity: r.rarity,
    attributes: r.attributes.map((a) => ({ traitType: a.traitType, value: a.value })),
    supply: r.supply,
    granted: r.granted,
    remaining: r.supply === null ? null : r.supply - r.granted,
  };
}

export function rowToUserItemDto(r: ItemRow): UserItemDto {
  return { ...rowToItemDto(r), ownedQuantity: Number(r.owned ?? 0), allocated: r.allocated === true };
}
