import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '../../database/base.entity.js';
import { User } from '../../users/entities/user.entity.js';

/**
 * An external account a user logs in with: `(tenant, provider, subjectId)` is unique.
 * `provider` is `providerA` … `providerD` or `siwe` (subject: the checksummed address).
 * The provider's OAuth tokens are kept AES-256-GCM encrypted (EncryptionService, bound to
 * `identity:<tenant>:<provider>:<subject>:<field>`) and are never returned or logged.
 */
@Entity('identities')
@Index('uq_identities_tenant_provider_subject', ['tenantId', 'provider', 'subjectId'], { unique: true })
@Index('ix_identities_user', ['userId'])
export class Identity extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'varchar', length: 16 })
  provider: string;

  @Column({ type: 'varchar', length: 255 })
  subjectId: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'text', nullable: true })
  idTokenEnc: string | null;

  @Column({ type: 'text', nullable: true })
  accessTokenEnc: string | null;

  @Column({ type: 'text', nullable: true })
  refreshTokenEnc: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastLoginAt: Date | null;
}
