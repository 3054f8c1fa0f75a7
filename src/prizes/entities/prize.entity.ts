import { Check, Column, Entity, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity.js';

export const PRIZE_KINDS = ['achievement', 'physical', 'digital'] as const;
export type PrizeKind = (typeof PRIZE_KINDS)[number];

/**
 * A prize or achievement of a tenant (optionally tied to one community). `totalSupply` caps the
 * units ever awarded (null: unlimited); `awarded` counts them and moves only with a conditional
 * UPDATE in `PrizesService.award`, so awarded <= totalSupply always. `requirementIds` name the
 * store requirements a winner is asked for (e.g. a shipping address).
 */
@Entity('prizes')
@Check('ck_prizes_supply', 'awarded >= 0 AND (total_supply IS NULL OR awarded <= total_supply)')
@Index('ix_prizes_tenant', ['tenantId', 'createdAt'])
export class Prize extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  /** A community of the tenant, or null for a tenant-wide prize (no foreign key needed: same tenant checked on write). */
  @Column({ type: 'uuid', nullable: true })
  communityId: string | null;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  imageUrl: string | null;

  @Column({ type: 'varchar', length: 16 })
  kind: PrizeKind;

  @Column({ type: 'int', nullable: true })
  totalSupply: number | null;

  @Column({ type: 'int', default: 0 })
  awarded: number;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  requirementIds: string[];
}
