import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Tenant } from './tenant.entity.js';

/**
 * A host name an operator assigned to a tenant: a request without a session or `X-Tenant-Id` on
 * that host runs in the tenant. The primary key makes a domain belong to one tenant at most; the
 * check keeps the normalised form (src/tenants/domain-name.ts) the lookup relies on.
 */
@Entity('tenant_domains')
@Check('ck_tenant_domains_domain', "domain ~ '^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$'")
export class TenantDomain {
  @PrimaryColumn({ type: 'varchar', length: 253 })
  domain: string;

  @Index('ix_tenant_domains_tenant')
  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
