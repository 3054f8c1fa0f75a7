import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The ledger of items: one row per grant (store purchase, quest, event reward, management API).
 * Σ quantity per (user, item) = user_items.quantity. A non-null `idempotencyKey` is unique per
 * tenant, so a replayed grant changes nothing.
 */
@Entity('item_grants')
@Index('uq_item_grants_idempotency', ['tenantId', 'idempotencyKey'], { unique: true, where: 'idempotency_key IS NOT NULL' })
@Index('ix_item_grants_user', ['tenantId', 'userId', 'createdAt'])
export class ItemGrant {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'uuid' })
  itemId: string;

  @Column({ type: 'int' })
  quantity: number;

  @Column({ type: 'varchar', length: 64 })
  reason: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  reference: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  idempotencyKey: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
