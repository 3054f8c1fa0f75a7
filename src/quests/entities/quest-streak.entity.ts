import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';
import { Quest } from './quest.entity.js';

/** A player's run of consecutive periods completed of a recurring quest (`current`), and the longest (`best`). */
@Entity('quest_streaks')
export class QuestStreak {
  @PrimaryColumn({ type: 'uuid' })
  questId: string;

  @ManyToOne(() => Quest, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'quest_id' })
  quest?: Relation<Quest>;

  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'integer' })
  current: number;

  @Column({ type: 'integer' })
  best: number;

  /** The period of the last completion. */
  @Column({ type: 'varchar', length: 16 })
  lastPeriodKey: string;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
