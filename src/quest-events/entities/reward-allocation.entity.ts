import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';
import { bigintNumber } from '../../resources/bigint.transformer.js';
import { QuestEventReward } from './quest-event-reward.entity.js';
import { QuestEvent } from './quest-event.entity.js';

/**
 * Tickets allocated to one participant for one reward at the event's completion. The unique
 * (reward, user) makes a second completion a no-op; `tickets_spent <= tickets` (CHECK, and the
 * conditional update of a claim) means tickets are never overspent.
 */
@Entity('quest_event_reward_allocations')
@Index('uq_reward_allocations_reward_user', ['rewardId', 'userId'], { unique: true })
@Index('ix_reward_allocations_event_user', ['eventId', 'userId'])
@Check('ck_reward_allocations_tickets', 'tickets_spent >= 0 AND tickets_spent <= tickets')
export class RewardAllocation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  eventId: string;

  @ManyToOne(() => QuestEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Relation<QuestEvent>;

  @Column({ type: 'uuid' })
  rewardId: string;

  @ManyToOne(() => QuestEventReward, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'reward_id' })
  reward?: Relation<QuestEventReward>;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'int' })
  tickets: number;

  @Column({ type: 'int', default: 0 })
  ticketsSpent: number;

  @Column({ type: 'int', nullable: true })
  rank: number | null;

  @Column({ type: 'bigint', transformer: bigintNumber })
  score: number;

  /** What the user submitted with the last claim (email, walletAddress, address). */
  @Column({ type: 'jsonb', nullable: true })
  requirementData: Record<string, unknown> | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
