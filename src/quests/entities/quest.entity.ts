import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { Community } from '../../communities/entities/community.entity.js';
import { BaseEntity } from '../../database/base.entity.js';
import { QuestEvent } from '../../quest-events/entities/quest-event.entity.js';
import type { QuestRecurrence } from '../schedule/quest-period.js';

export const QUEST_STATUSES = ['draft', 'active', 'archived'] as const;
export type QuestStatus = (typeof QUEST_STATUSES)[number];

/** `resource`: credit `amount` of a resource type; `item`: grant `quantity` units of an item. */
export type QuestReward = { type: 'resource'; resourceTypeId: string; amount: number } | { type: 'item'; itemId: string; quantity: number };

/** A streak bonus: `rewards` on top of the quest's at every `every`-th consecutive period completed. */
export interface QuestStreakBonus {
  every: number;
  rewards: QuestReward[];
}

/** Who may claim the quest at all (checked before any task is verified). */
export interface QuestGates {
  /** The account is at least this many days old. */
  minAccountAgeDays?: number;
  /** The player has an EVM wallet (a SIWE login). */
  requireWallet?: boolean;
  /** The player has linked socials of each of these account types. */
  requireSocials?: string[];
}

/**
 * A quest of a community, optionally part of a quest event (its rewards then usually credit the
 * event's scoped resource). Users see `active` quests. Tags are stored lowercase.
 */
@Entity('quests')
@Index('ix_quests_community_status', ['communityId', 'status'])
// Written by the PerformanceIndexes migration (partial, DESC, GIN): the community list's order and tag filter.
@Index('ix_quests_active_order', { synchronize: false })
@Index('ix_quests_active_tags', { synchronize: false })
// Written by the QuestSearchIndex migration (pg_trgm GIN): the list's `query` filter.
@Index('ix_quests_active_search', { synchronize: false })
@Index('ix_quests_event', ['questEventId'])
@Index('ix_quests_tenant', ['tenantId'])
export class Quest extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @ManyToOne(() => Community, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'community_id' })
  community?: Relation<Community>;

  @Column({ type: 'uuid', nullable: true })
  questEventId: string | null;

  @ManyToOne(() => QuestEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'quest_event_id' })
  questEvent?: Relation<QuestEvent>;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  /** Free-form type (e.g. `social`, `onchain`, `daily`), stored lowercase. */
  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ type: 'varchar', length: 16 })
  status: QuestStatus;

  @Column({ type: 'text', array: true, default: '{}' })
  tags: string[];

  @Column({ type: 'jsonb', default: () => "'[]'" })
  rewards: QuestReward[];

  @Column({ type: 'boolean', default: false })
  featured: boolean;

  @Column({ type: 'boolean', default: false })
  template: boolean;

  /** `once`, or a new period every day, ISO week or month of the community's time zone. */
  @Column({ type: 'varchar', length: 8, default: 'once' })
  recurrence: QuestRecurrence;

  /** Least time between two completions of a player, in seconds. */
  @Column({ type: 'integer', nullable: true })
  cooldownSeconds: number | null;

  /** Most completions of a player, over every period. */
  @Column({ type: 'integer', nullable: true })
  maxCompletions: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  availableFrom: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  availableUntil: Date | null;

  /** Quests the player must have completed (once, in any period) before this one. */
  @Column({ type: 'uuid', array: true, default: '{}' })
  prerequisites: string[];

  @Column({ type: 'jsonb', nullable: true })
  streakBonus: QuestStreakBonus | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  gates: QuestGates;

  /** How many tasks it has (kept by the tasks' writes): 0 means the game completes it through the management API. */
  @Column({ type: 'integer', default: 0 })
  taskCount: number;
}
