import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';
import { Community } from './community.entity.js';

/** Membership of a user in a community: at most one per (community, user). */
@Entity('community_members')
@Index('uq_community_members_community_user', ['communityId', 'userId'], { unique: true })
@Index('ix_community_members_user', ['tenantId', 'userId'])
export class CommunityMember {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @ManyToOne(() => Community, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'community_id' })
  community?: Relation<Community>;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  /** The member who referred this user into the community (also recorded in `referrals`). */
  @Column({ type: 'uuid', nullable: true })
  referrerId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'referrer_id' })
  referrer?: Relation<User>;

  /** From the injected Clock. */
  @Column({ type: 'timestamptz' })
  joinedAt: Date;
}
