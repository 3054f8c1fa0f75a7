import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '../../database/base.entity.js';
import { Tenant } from '../../tenants/entities/tenant.entity.js';

/** A person in one tenant. Usernames and handles are unique per tenant, case-insensitively. */
@Entity('users')
@Index('uq_users_tenant_username', ['tenantId', 'usernameNormalized'], { unique: true, where: 'username_normalized IS NOT NULL' })
@Index('uq_users_tenant_handle', ['tenantId', 'handleNormalized'], { unique: true })
export class User extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  /** Login name for password accounts; null for accounts created by other logins. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  username: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  usernameNormalized: string | null;

  /** scrypt hash in the form `scrypt$N$r$p$salt$hash`; null when the account has no password. */
  @Column({ type: 'text', nullable: true })
  passwordHash: string | null;

  /** Public handle, shown on leaderboards and used for referrals. */
  @Column({ type: 'varchar', length: 32 })
  handle: string;

  @Column({ type: 'varchar', length: 32 })
  handleNormalized: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  displayName: string | null;
}
