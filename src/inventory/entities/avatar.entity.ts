import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A user's avatar in a community: the allocations (`avatar_slots`) and a version that grows by
 * one with every allocation that changes something. A mint is tied to the version it showed.
 * The row is locked (`FOR UPDATE`) while allocating, so concurrent allocations serialise.
 */
@Entity('avatars')
@Index('ix_avatars_tenant', ['tenantId'])
export class Avatar {
  @PrimaryColumn({ type: 'uuid' })
  communityId: string;

  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'int', default: 0 })
  version: number;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
