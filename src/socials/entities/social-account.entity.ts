import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '../../database/base.entity.js';
import { User } from '../../users/entities/user.entity.js';

/**
 * An external account linked to a user. One account (type + subject) belongs to at most one user
 * of the tenant. Tokens are AES-256-GCM ciphertexts bound to `social:<id>:<column>`; they are
 * never returned. `createdAt` (inherited) is when it was linked here; `providerCreatedAt` is the
 * client's `createdAt` object.
 */
@Entity('social_accounts')
@Index('uq_social_accounts_subject', ['tenantId', 'accountType', 'subjectId'], { unique: true })
@Index('ix_social_accounts_user', ['tenantId', 'userId', 'accountType'])
export class SocialAccount extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'varchar', length: 32 })
  accountType: string;

  @Column({ type: 'varchar', length: 256 })
  subjectId: string;

  @Column({ type: 'boolean' })
  isPublic: boolean;

  @Column({ type: 'varchar', length: 128, nullable: true })
  handle: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  server: string | null;

  /** When the stored tokens expire. */
  @Column({ type: 'timestamptz', nullable: true })
  expiryDate: Date | null;

  @Column({ type: 'jsonb', nullable: true })
  extraArgs: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  providerCreatedAt: Record<string, unknown> | null;

  @Column({ type: 'text', nullable: true })
  userTokenEncrypted: string | null;

  @Column({ type: 'text', nullable: true })
  refreshTokenEncrypted: string | null;
}
