import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';
import { Quest } from './quest.entity.js';

/**
 * A user completed a quest in one of its periods (`once`, a day, a week, a month): at most once per
 * period (unique), which makes its rewards credited once per period.
 */
@Entity('quest_completions')
@Index('uq_quest_completions_quest_user_period', ['questId', 'userId', 'periodKey'], { unique: true })
@Index('ix_quest_completions_user', ['tenantId', 'userId'])
export class QuestCompletion {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  questId: string;

  @ManyToOne(() => Quest, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'quest_id' })
  quest?: Relation<Quest>;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  /** The period completed: `once`, `2026-12-02`, `2026-W49`, `2026-12` (src/quests/schedule/quest-period.ts). */
  @Column({ type: 'varchar', length: 16, default: 'once' })
  periodKey: string;

  @Column({ type: 'timestamptz' })
  completedAt: Date;
}
