import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { Community } from '../../communities/entities/community.entity.js';
import { BaseEntity } from '../../database/base.entity.js';
import type { EventState } from '../event-status.js';

/**
 * Where a running completion (`state = 'completing'`) or a cancellation's notices (`cancelled`,
 * the `notices` step alone) stand: each step works through the participants in batches of their
 * own transactions and stores its place here in the same transaction, so interrupted work resumes
 * where it stopped (EventCompletionService).
 */
export interface CompletionProgress {
  /** The final scores count the ledger entries stamped before this instant (ISO): the end, or just after an early close (a cancellation: its time). */
  before: string;
  step: 'scores' | 'ranked' | 'unranked' | 'notices';
  /** The last user done by a step that goes in user id order (scores, unranked, notices); in `ranked`, the last one ranked. */
  afterUser: string | null;
  /** `ranked`: the score (decimal text) and rank of the last one ranked, and how many were ranked before the next. */
  afterScore: string | null;
  afterRank: number | null;
  position: number;
}

/** Batches that start at their first participant: a completion (`scores`) or a cancellation's notices. */
export function progressFrom(step: CompletionProgress['step'], before: Date): CompletionProgress {
  return { before: before.toISOString(), step, afterUser: null, afterScore: null, afterRank: null, position: 0 };
}

/**
 * A quest event of a community. `state` holds the explicit states (draft, published, cancelled,
 * completed); the user-facing status is derived from it and the times (`event-status.ts`).
 * `registeredCount` counts REGISTERED participants and is changed only by conditional updates of
 * this row (the capacity check `registered_count < capacity` and the completion's claim
 * `state = 'published'` are both single-row UPDATEs).
 */
@Entity('quest_events')
@Index('uq_quest_events_tenant_slug', ['tenantId', 'slug'], { unique: true })
@Index('ix_quest_events_community', ['communityId'])
@Index('ix_quest_events_due', ['state', 'endsAt'])
// Written by the PerformanceIndexes migration: the event list's order (tenant, starts_at, id).
@Index('ix_quest_events_tenant_starts', { synchronize: false })
@Check('ck_quest_events_registered', 'registered_count >= 0 AND (capacity IS NULL OR registered_count <= capacity)')
@Check('ck_quest_events_rule', 'min_score >= 0 AND (max_rank IS NULL OR max_rank >= 1)')
export class QuestEvent extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @ManyToOne(() => Community, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'community_id' })
  community?: Relation<Community>;

  @Column({ type: 'varchar', length: 64 })
  slug: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  imageUrl: string | null;

  /** Free-form feature flags (`filter[features]` of the list). */
  @Column({ type: 'text', array: true, default: '{}' })
  features: string[];

  @Column({ type: 'varchar', length: 16 })
  state: EventState;

  @Column({ type: 'timestamptz' })
  registrationStartsAt: Date;

  @Column({ type: 'timestamptz' })
  registrationEndsAt: Date;

  @Column({ type: 'timestamptz' })
  startsAt: Date;

  @Column({ type: 'timestamptz' })
  endsAt: Date;

  /** Most REGISTERED participants at once; null = unlimited. */
  @Column({ type: 'int', nullable: true })
  capacity: number | null;

  @Column({ type: 'int', default: 0 })
  registeredCount: number;

  /** The scoped resource type whose earned amount is the score (and the leaderboard). */
  @Column({ type: 'uuid', nullable: true })
  scoreResourceTypeId: string | null;

  /** Completion rule: minimum score to receive tickets. */
  @Column({ type: 'int', default: 1 })
  minScore: number;

  /** Completion rule: only ranks 1..maxRank receive tickets; null = any rank. */
  @Column({ type: 'int', nullable: true })
  maxRank: number | null;

  /** When the completion finished: every REGISTERED participant scored, allocated and told. */
  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  /** Where the batches left to do stand (a completion, a cancellation's notices); null when none are left. */
  @Column({ type: 'jsonb', nullable: true })
  completion: CompletionProgress | null;

  @Column({ type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;
}
