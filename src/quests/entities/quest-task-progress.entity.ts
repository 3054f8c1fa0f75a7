import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '../../database/base.entity.js';
import { User } from '../../users/entities/user.entity.js';
import { QuestTask } from './quest-task.entity.js';

/** Where a player's task of a quest stands in one period. */
export const TASK_STATES = ['done', 'pending', 'rejected', 'failed'] as const;
export type TaskState = (typeof TASK_STATES)[number];

/**
 * A player's progress on one task in one period (`periodKey`, as the completion's): `done`;
 * `pending`, a submission waiting for review; `rejected`, a submission refused (with a reason; the
 * player may submit again); `failed`, wrong answers so far (`attempts`, and `retryAt` after a wrong
 * one). Only what a player did or an operator decided is kept: checks against other systems are
 * made again until they pass.
 */
@Entity('quest_task_progress')
@Index('uq_quest_task_progress_task_user_period', ['taskId', 'userId', 'periodKey'], { unique: true })
@Index('ix_quest_task_progress_user', ['tenantId', 'userId', 'questId', 'periodKey'])
@Index('ix_quest_task_progress_review', ['tenantId', 'state', 'createdAt'])
export class QuestTaskProgress extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  questId: string;

  @Column({ type: 'uuid' })
  taskId: string;

  @ManyToOne(() => QuestTask, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'task_id' })
  task?: Relation<QuestTask>;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'varchar', length: 16 })
  periodKey: string;

  @Column({ type: 'varchar', length: 16 })
  state: TaskState;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz', nullable: true })
  retryAt: Date | null;

  /** A submission's text or URL. */
  @Column({ type: 'text', nullable: true })
  submission: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  reviewReason: string | null;

  /** Who reviewed it (the audit log's actor: `api-key:<prefix>`). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  reviewedBy: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  reviewedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  doneAt: Date | null;
}
