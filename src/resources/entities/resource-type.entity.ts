import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { Community } from '../../communities/entities/community.entity.js';
import { BaseEntity } from '../../database/base.entity.js';

export const RESOURCE_KINDS = ['global', 'scoped'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/**
 * A kind of resource of a community. `global`: the community-wide currency (XP) members earn
 * to climb the leaderboard. `scoped`: isolated and disposable, belongs to one quest event
 * (`questEventId`, a plain uuid without foreign key: quest events live in another module that
 * may be added later; the events module checks it). The slug is unique per community and is
 * the `{slug}` of the ranking and leaderboard routes.
 */
@Entity('resource_types')
@Index('uq_resource_types_community_slug', ['communityId', 'slug'], { unique: true })
@Index('ix_resource_types_tenant', ['tenantId'])
export class ResourceType extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @ManyToOne(() => Community, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'community_id' })
  community?: Relation<Community>;

  @Column({ type: 'varchar', length: 64 })
  slug: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'varchar', length: 16 })
  kind: ResourceKind;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  imageUrl: string | null;

  /** Scoped resources only: the quest event they belong to (no foreign key, see class doc). */
  @Column({ type: 'uuid', nullable: true })
  questEventId: string | null;
}
