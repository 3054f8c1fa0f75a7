import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity.js';
import { bigintNumber } from '../../resources/bigint.transformer.js';

export const REQUIREMENT_KINDS = ['data', 'owns_item', 'min_resource'] as const;
export type RequirementKind = (typeof REQUIREMENT_KINDS)[number];

/**
 * Something a buyer (or prize winner) must give or satisfy. Shared by listings and prizes.
 * - `data`: the buyer sends a JSON object matching `schema` (a JSON Schema, checked with ajv), e.g.
 *   a shipping address, an email, a wallet address. `personalData` (default true) makes saved
 *   copies and purchase copies encrypted at rest.
 * - `owns_item`: the buyer must own `itemId` (read from the inventory tables).
 * - `min_resource`: the buyer's EARNED total of `resourceTypeId` must be at least `minAmount`.
 */
@Entity('store_requirements')
@Index('uq_store_requirements_tenant_key', ['tenantId', 'key'], { unique: true })
export class StoreRequirement extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'varchar', length: 64 })
  key: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'varchar', length: 16 })
  kind: RequirementKind;

  @Column({ type: 'jsonb', nullable: true })
  schema: Record<string, unknown> | null;

  @Column({ type: 'boolean', default: true })
  personalData: boolean;

  @Column({ type: 'uuid', nullable: true })
  itemId: string | null;

  @Column({ type: 'uuid', nullable: true })
  resourceTypeId: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  minAmount: number | null;
}
