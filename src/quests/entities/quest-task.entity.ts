import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '../../database/base.entity.js';
import type { QuestTaskKind, QuestTaskSettings } from '../tasks/task-kinds.js';
import { Quest } from './quest.entity.js';

/**
 * One task of a quest: the quest is complete for a player when all its tasks are done in the
 * period. `settings` is the kind's (src/quests/tasks/task-kinds.ts), with an answer task's
 * expected answers hashed; `secretEnc` the AES-GCM ciphertext of a partner task's signing secret.
 */
@Entity('quest_tasks')
@Index('ix_quest_tasks_quest', ['questId', 'position'])
export class QuestTask extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  questId: string;

  @ManyToOne(() => Quest, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'quest_id' })
  quest?: Relation<Quest>;

  @Column({ type: 'integer', default: 0 })
  position: number;

  @Column({ type: 'varchar', length: 16 })
  kind: QuestTaskKind;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'jsonb' })
  settings: QuestTaskSettings;

  @Column({ type: 'text', nullable: true })
  secretEnc: string | null;
}
