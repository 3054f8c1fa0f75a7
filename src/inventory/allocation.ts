import { DomainError } from '../common/errors/domain-error.js';
import { InventoryErrors } from './inventory.errors.js';

export interface PlanSlot {
  id: string;
  key: string;
}

export interface PlanItem {
  id: string;
  slotId: string;
  /** Units the user owns (0 when none). */
  owned: number;
}

export interface AllocationChange {
  slotId: string;
  /** null empties the slot. */
  itemId: string | null;
}

/**
 * Checks a whole allocation request and returns the changes it makes (pure; all or nothing: the
 * first problem throws and nothing is applied). Each entry names a slot by id or key; an empty
 * `itemId` (null or "") empties the slot; otherwise the item must exist in the community, fit that
 * slot and be owned by the user. A slot may appear once. Entries that change nothing are dropped.
 */
export function planAllocation(
  requested: { slotId: string; itemId: string | null }[],
  slots: PlanSlot[],
  items: Map<string, PlanItem>,
  current: Map<string, string>,
): AllocationChange[] {
  const seen = new Set<string>();
  const changes: AllocationChange[] = [];
  for (const entry of requested) {
    const ref = entry.slotId.trim().toLowerCase();
    const slot = slots.find((s) => s.id === ref || s.key === ref);
    if (!slot) throw new DomainError(InventoryErrors.slot_not_found, `No slot "${entry.slotId.slice(0, 64)}" in this community`);
    if (seen.has(slot.id)) throw new DomainError(InventoryErrors.duplicate_slot, `Slot "${slot.key}" appears more than once`);
    seen.add(slot.id);
    const itemId = entry.itemId === null || entry.itemId === '' ? null : entry.itemId.toLowerCase();
    if (itemId !== null) {
      const item = items.get(itemId);
      if (!item) throw new DomainError(InventoryErrors.item_not_found, `No item ${itemId} in this community`);
      if (item.slotId !== slot.id)
        throw new DomainError(InventoryErrors.item_slot_mismatch, `Item ${itemId} does not fit slot "${slot.key}"`, {
          slotId: slot.id,
          itemId,
        });
      if (item.owned < 1) throw new DomainError(InventoryErrors.item_not_owned, `You do not own item ${itemId}`, { itemId });
    }
    if ((current.get(slot.id) ?? null) !== itemId) changes.push({ slotId: slot.id, itemId });
  }
  return changes;
}
