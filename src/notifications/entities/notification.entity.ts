import { Column, Entity, Generated, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Community } from '../../communities/entities/community.entity.js';
import { User } from '../../users/entities/user.entity.js';

/**
 * A message to one user, written in the transaction of the change it reports. `communityId` null:
 * about the user's account in the tenant (e.g. a sign-up referral); such notifications show in
 * every community's list. `createdAt` comes from the service clock, so ordering is testable.
 */
@Entity('notifications')
@Index('ix_notifications_user_created', ['tenantId', 'userId', 'createdAt'])
@Index('ix_notifications_user_unread', ['tenantId', 'userId'], { where: 'read_at IS NULL' })
@Index('ix_notifications_user_xid', ['tenantId', 'userId', 'xid'])
export class Notification {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'uuid', nullable: true })
  communityId: string | null;

  @ManyToOne(() => Community, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'community_id' })
  community?: Relation<Community>;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  data: Record<string, unknown>;

  @Column({ type: 'timestamptz', nullable: true })
  readAt: Date | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  /**
   * The order rows were written in, from a sequence: ties of `createdAt` (notifications of one
   * change share its time) are ordered by it. Null on rows written before it was added. Not read.
   */
  @Column({ type: 'bigint', nullable: true, select: false, insert: false, update: false })
  @Generated('increment')
  seq?: string | null;

  /**
   * The id of the transaction that wrote the row (`pg_current_xact_id()`, 64 bits, never reused):
   * with a snapshot it says whether the row had committed when the snapshot was taken, which is
   * the live stream's resume cursor (src/notifications/stream/stream-cursor.ts). Not read by the
   * list routes.
   */
  @Column({ type: 'bigint', default: () => 'cgs_current_xid()', select: false, insert: false, update: false })
  xid?: string;
}
