import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '../../database/base.entity.js';
import { Community } from '../../communities/entities/community.entity.js';

/** A place on a community's avatar (head, body, background, badge...). `key` is unique per community. */
@Entity('inventory_slots')
@Index('uq_inventory_slots_community_key', ['communityId', 'key'], { unique: true })
@Index('ix_inventory_slots_tenant', ['tenantId'])
export class InventorySlot extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @ManyToOne(() => Community, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'community_id' })
  community?: Relation<Community>;

  /** Lowercase identifier, e.g. `head`; accepted wherever a slotId is. */
  @Column({ type: 'varchar', length: 64 })
  key: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  description: string;

  /** Display and layering order (ascending); ties by key. */
  @Column({ type: 'int', default: 0 })
  position: number;
}
