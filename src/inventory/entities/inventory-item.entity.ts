import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '../../database/base.entity.js';
import { InventorySlot } from './inventory-slot.entity.js';

/** An ERC-721-style trait of an item. */
export interface ItemAttribute {
  traitType: string;
  value: string | number;
}

/**
 * An item of a community, fitting exactly one slot. `supply` caps the units ever granted (null:
 * unlimited). The units granted are counted in the item's shards (`inventory_item_shards`, each a
 * share of the supply; taken by the database function `cgs_take_item_supply`), not in
 * this row, so grants of one item do not queue on it; their sum is what the API shows. The
 * `granted` column (`grantedFolded`) is a summary folded from the shards shortly after grants
 * commit: never above the true count, never used to decide a grant.
 */
@Entity('inventory_items')
@Check('ck_inventory_items_supply', 'granted >= 0 AND (supply IS NULL OR granted <= supply)')
@Index('ix_inventory_items_community_slot', ['communityId', 'slotId'])
@Index('ix_inventory_items_tenant', ['tenantId'])
export class InventoryItem extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @Column({ type: 'uuid' })
  slotId: string;

  @ManyToOne(() => InventorySlot, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'slot_id' })
  slot?: Relation<InventorySlot>;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  description: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  imageUrl: string | null;

  /** Free-form label, e.g. `common`, `rare`, `legendary`. */
  @Column({ type: 'varchar', length: 32, default: 'common' })
  rarity: string;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  attributes: ItemAttribute[];

  @Column({ type: 'int', nullable: true })
  supply: number | null;

  /** Column `granted`: Σ shards as last folded (a lower bound, caught up shortly after a grant). */
  @Column({ name: 'granted', type: 'int', default: 0 })
  grantedFolded: number;
}
