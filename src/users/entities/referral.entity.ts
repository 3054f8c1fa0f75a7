import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { User } from './user.entity.js';

/**
 * Who referred whom. `communityId` null: referred at sign-up (a login that created the user);
 * otherwise referred into that community when joining it. A user has at most one referrer per
 * scope (`uq_referrals_signup`, `uq_referrals_community`), and nobody refers themselves.
 */
@Entity('referrals')
@Index('uq_referrals_signup', ['referredId'], { unique: true, where: 'community_id IS NULL' })
@Index('uq_referrals_community', ['referredId', 'communityId'], { unique: true, where: 'community_id IS NOT NULL' })
@Index('ix_referrals_referrer', ['referrerId', 'communityId'])
export class Referral {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  referrerId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'referrer_id' })
  referrer?: Relation<User>;

  @Column({ type: 'uuid' })
  referredId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'referred_id' })
  referred?: Relation<User>;

  @Column({ type: 'uuid', nullable: true })
  communityId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
