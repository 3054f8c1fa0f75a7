import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { QuestEvent } from '../../quest-events/entities/quest-event.entity.js';
import { bigintNumber } from '../../resources/bigint.transformer.js';
import { User } from '../../users/entities/user.entity.js';
import type { ParticipantStatus } from '../participant-status.js';

/**
 * A user's participation in a quest event: at most one row per (event, user). `status` follows
 * the transition table of `participant-status.ts`; `score` is the earned amount of the event's
 * scoped resource as of `scoreSyncedAt`.
 */
@Entity('quest_event_participants')
@Index('uq_participants_event_user', ['eventId', 'userId'], { unique: true })
@Index('ix_participants_event_status', ['eventId', 'status'])
@Index('ix_participants_user', ['tenantId', 'userId'])
// Written by the EventFinalStandings migration (score DESC, partial): the order a completion ranks in.
@Index('ix_participants_standings', { synchronize: false })
// Written by the EventCompletionInSteps migration (partial): a completed event's standings by place.
@Index('ix_participants_final_position', { synchronize: false })
export class Participant {
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
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'smallint' })
  status: ParticipantStatus;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  score: number;

  @Column({ type: 'timestamptz', nullable: true })
  scoreSyncedAt: Date | null;

  /** The first registration. */
  @Column({ type: 'timestamptz' })
  registeredAt: Date;

  @Column({ type: 'timestamptz' })
  statusChangedAt: Date;

  /**
   * The place in the completed event's final standings (1, 2, 3, ... by score DESC, then user id)
   * and the rank shown there (equal scores share one: 1, 2, 2, 4); null while the event is not
   * completed, and for the unranked (score 0, or not REGISTERED at the completion).
   */
  @Column({ type: 'int', nullable: true })
  finalPosition: number | null;

  @Column({ type: 'int', nullable: true })
  finalRank: number | null;

  /** Why the participant was dropped. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  dropReason: string | null;
}
