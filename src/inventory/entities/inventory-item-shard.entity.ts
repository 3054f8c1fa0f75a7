import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { InventoryItem } from './inventory-item.entity.js';

/**
 * One share of an item's supply (docs/decisions.md, "Store and prizes"). Every item has
 * `ITEM_SHARDS` of them (0..N-1); a grant takes its units from one shard with a conditional
 * UPDATE (from several, locked in shard order, only when no single shard has enough), so grants
 * of one item lock different rows instead of queueing on one.
 *
 * `cap` is the shard's share of the item's `supply` (null: unlimited, the shard only counts); the
 * caps add up to `supply` at all times (a supply change redistributes them under the item row's
 * lock) and `granted <= cap` (CHECK), so Σ granted never exceeds the supply. The item's units
 * granted are Σ granted over its shards.
 */
@Entity('inventory_item_shards')
@Check('ck_inventory_item_shards_supply', 'granted >= 0 AND (cap IS NULL OR granted <= cap)')
export class InventoryItemShard {
  @PrimaryColumn({ type: 'uuid' })
  itemId: string;

  @ManyToOne(() => InventoryItem, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'item_id' })
  item?: Relation<InventoryItem>;

  @PrimaryColumn({ type: 'smallint' })
  shard: number;

  @Column({ type: 'int', nullable: true })
  cap: number | null;

  @Column({ type: 'int', default: 0 })
  granted: number;
}
