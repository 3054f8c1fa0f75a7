import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';
import { Prize } from './prize.entity.js';

export const PRIZE_SOURCES = ['store', 'event', 'admin', 'season'] as const;
export type PrizeSource = (typeof PRIZE_SOURCES)[number];

/** Append-only: one row per award. The owners of a prize are the users with awards. */
@Entity('prize_awards')
@Index('uq_prize_awards_idempotency', ['tenantId', 'idempotencyKey'], { unique: true, where: 'idempotency_key IS NOT NULL' })
@Index('ix_prize_awards_prize_user', ['prizeId', 'userId'])
@Index('ix_prize_awards_user', ['tenantId', 'userId', 'prizeId'])
export class PrizeAward {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  prizeId: string;

  @ManyToOne(() => Prize, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'prize_id' })
  prize?: Relation<Prize>;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'int' })
  quantity: number;

  /** How it was earned: `store`, `event` or `admin`. */
  @Column({ type: 'varchar', length: 16 })
  source: PrizeSource;

  @Column({ type: 'varchar', length: 64 })
  reason: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  reference: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  idempotencyKey: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
