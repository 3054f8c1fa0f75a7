import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';
import { bigintNumber } from '../bigint.transformer.js';
import { ResourceType } from './resource-type.entity.js';

/**
 * Append-only: one row per change of a balance. `delta` changes `balance`, `earnedDelta`
 * changes `earned` (0 for a spend). `idempotencyKey` is unique per tenant: a replay is a no-op.
 */
@Entity('resource_ledger')
@Index('uq_resource_ledger_idempotency', ['tenantId', 'idempotencyKey'], { unique: true, where: 'idempotency_key IS NOT NULL' })
@Index('ix_resource_ledger_user', ['resourceTypeId', 'userId', 'createdAt'])
export class ResourceLedgerEntry {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  resourceTypeId: string;

  @ManyToOne(() => ResourceType, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'resource_type_id' })
  resourceType?: Relation<ResourceType>;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'bigint', transformer: bigintNumber })
  delta: number;

  @Column({ type: 'bigint', transformer: bigintNumber })
  earnedDelta: number;

  /** Why: `grant`, `deduct`, `quest_completion`, `purchase`... (free text, 64 chars). */
  @Column({ type: 'varchar', length: 64 })
  reason: string;

  /** What it refers to (a quest id, an order id...). */
  @Column({ type: 'varchar', length: 200, nullable: true })
  reference: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  idempotencyKey: string | null;

  /** From the injected Clock. */
  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
