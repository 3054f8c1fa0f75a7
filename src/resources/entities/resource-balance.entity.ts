import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';
import { bigintNumber } from '../bigint.transformer.js';
import { ResourceType } from './resource-type.entity.js';

/**
 * How much of a resource a user holds. Changed only by `LedgerService`, in the same transaction
 * as a `resource_ledger` row, so Σ ledger.delta = balance and Σ ledger.earned_delta = earned.
 *
 * - `balance`: spendable (the store debits it). Never negative.
 * - `earned`: what the leaderboard ranks. Credits raise it; spending does not lower it (so buying
 *   in the store never costs rank); only an explicit revoke lowers it. earned >= balance always.
 * - `earnedAt`: when `earned` last changed; ties on `earned` are ordered by it (first to reach
 *   the score first), then by user id.
 *
 * The leaderboard index `ix_resource_balances_rank` (resource_type_id, earned DESC, earned_at,
 * user_id) WHERE earned > 0 has mixed sort directions, which the decorator cannot express: it is
 * written by hand in the migration and marked `synchronize: false`.
 */
@Entity('resource_balances')
@Check('ck_resource_balances_non_negative', 'balance >= 0 AND earned >= 0')
@Check('ck_resource_balances_amounts_safe', 'balance <= 9007199254740991 AND earned <= 9007199254740991')
@Index('ix_resource_balances_rank', { synchronize: false })
@Index('ix_resource_balances_user', ['tenantId', 'userId'])
export class ResourceBalance {
  @PrimaryColumn({ type: 'uuid' })
  resourceTypeId: string;

  @ManyToOne(() => ResourceType, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'resource_type_id' })
  resourceType?: Relation<ResourceType>;

  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  balance: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  earned: number;

  @Column({ type: 'timestamptz' })
  earnedAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
