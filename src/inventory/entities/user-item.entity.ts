import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';
import { InventoryItem } from './inventory-item.entity.js';

/** How many units of an item a user owns. Changed only with an `item_grants` row. */
@Entity('user_items')
@Check('ck_user_items_quantity', 'quantity > 0')
@Index('ix_user_items_user_community', ['tenantId', 'userId', 'communityId'])
export class UserItem {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @PrimaryColumn({ type: 'uuid' })
  itemId: string;

  @ManyToOne(() => InventoryItem, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'item_id' })
  item?: Relation<InventoryItem>;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @Column({ type: 'int' })
  quantity: number;

  @Column({ type: 'timestamptz' })
  acquiredAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
