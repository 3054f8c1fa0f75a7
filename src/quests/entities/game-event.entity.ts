import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';

/**
 * Something a player did in the game, posted by a game server (`POST /v1/admin/events`): what
 * `game_event` tasks count or sum. One row per event; `idempotencyKey` is unique per tenant, so a
 * batch sent again adds nothing.
 */
@Entity('game_events')
@Index('uq_game_events_idempotency', ['tenantId', 'idempotencyKey'], { unique: true })
@Index('ix_game_events_user_type', ['tenantId', 'userId', 'type', 'occurredAt'])
export class GameEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  /** The game's own name of what happened (`match_won`, `boss_defeated`). */
  @Column({ type: 'varchar', length: 64 })
  type: string;

  /** How much (1 for a plain occurrence): what `sum` adds. */
  @Column({ type: 'bigint', default: 1 })
  value: string;

  @Column({ type: 'timestamptz' })
  occurredAt: Date;

  @Column({ type: 'varchar', length: 128 })
  idempotencyKey: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
