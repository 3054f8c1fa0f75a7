import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';
import { Quest } from './quest.entity.js';

/** A user completed a quest: at most once (unique), which makes its rewards credited once. */
@Entity('quest_completions')
@Index('uq_quest_completions_quest_user', ['questId', 'userId'], { unique: true })
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

  @Column({ type: 'timestamptz' })
  completedAt: Date;
}
