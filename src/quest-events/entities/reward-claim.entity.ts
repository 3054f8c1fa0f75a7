import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { RewardAllocation } from './reward-allocation.entity.js';

/** One claim: tickets spent on a reward and the data submitted with it. Append-only. */
@Entity('quest_event_reward_claims')
@Index('ix_reward_claims_allocation', ['allocationId'])
export class RewardClaim {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  allocationId: string;

  @ManyToOne(() => RewardAllocation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'allocation_id' })
  allocation?: Relation<RewardAllocation>;

  @Column({ type: 'uuid' })
  rewardId: string;

  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'int' })
  ticketsSpent: number;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  /** EVM (42 characters, checksummed) or Sui (66, lower case). */
  @Column({ type: 'varchar', length: 66, nullable: true })
  walletAddress: string | null;

  @Column({ type: 'jsonb', nullable: true })
  address: Record<string, unknown> | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
