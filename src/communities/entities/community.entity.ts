import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '../../database/base.entity.js';
import { Tenant } from '../../tenants/entities/tenant.entity.js';

/** A link shown on a community page (website, Discord, X...). */
export interface CommunityLink {
  label: string;
  url: string;
}

/**
 * A community of a tenant. Addressed by id or by `slug` (lowercase, unique per tenant, never
 * uuid-shaped so the two cannot be confused). `memberCount` is maintained on join.
 */
@Entity('communities')
@Index('uq_communities_tenant_slug', ['tenantId', 'slug'], { unique: true })
export class Community extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @Column({ type: 'varchar', length: 64 })
  slug: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  /** Square logo. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  imageUrl: string | null;

  /** Wide header image. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  bannerUrl: string | null;

  /** IANA time zone of the community's calendar: where its daily, weekly and monthly quests start a new period. */
  @Column({ type: 'varchar', length: 64, default: 'UTC' })
  timeZone: string;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  links: CommunityLink[];

  @Column({ type: 'integer', default: 0 })
  memberCount: number;
}
