import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { InventoryItem } from './inventory-item.entity.js';
import { InventorySlot } from './inventory-slot.entity.js';

/** The item a user has put in a slot of their avatar (at most one per slot). */
@Entity('avatar_slots')
@Index('ix_avatar_slots_user', ['tenantId', 'communityId', 'userId'])
export class AvatarSlot {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @PrimaryColumn({ type: 'uuid' })
  slotId: string;

  @ManyToOne(() => InventorySlot, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'slot_id' })
  slot?: Relation<InventorySlot>;

  @Column({ type: 'uuid' })
  itemId: string;

  @ManyToOne(() => InventoryItem, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'item_id' })
  item?: Relation<InventoryItem>;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @Column({ type: 'timestamptz' })
  allocatedAt: Date;
}
