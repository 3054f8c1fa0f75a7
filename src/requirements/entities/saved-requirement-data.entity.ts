import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';
import { StoreRequirement } from './store-requirement.entity.js';

/**
 * A user's data for a `data` requirement, kept when they asked (`shouldSave`) and offered back by
 * `enrichRequirements` and GET /v1/inventory/prizes/requirements. Personal data is held only in
 * `dataEncrypted` (AES-256-GCM, bound to tenant, user and requirement); otherwise in `data`.
 */
@Entity('store_saved_requirement_data')
export class SavedRequirementData {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @PrimaryColumn({ type: 'uuid' })
  requirementId: string;

  @ManyToOne(() => StoreRequirement, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'requirement_id' })
  requirement?: Relation<StoreRequirement>;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'jsonb', nullable: true })
  data: Record<string, unknown> | null;

  @Column({ type: 'text', nullable: true })
  dataEncrypted: string | null;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
