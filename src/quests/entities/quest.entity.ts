import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { Community } from '../../communities/entities/community.entity.js';
import { BaseEntity } from '../../database/base.entity.js';
import { QuestEvent } from '../../quest-events/entities/quest-event.entity.js';

export const QUEST_STATUSES = ['draft', 'active', 'archived'] as const;
export type QuestStatus = (typeof QUEST_STATUSES)[number];

/** `resource`: credit `amount` of a resource type; `item`: grant `quantity` units of an item. */
export type QuestReward = { type: 'resource'; resourceTypeId: string; amount: number } | { type: 'item'; itemId: string; quantity: number };

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
}
