import { Column, CreateDateColumn, Entity, JoinColumn, OneToOne, PrimaryColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';

/** The Address shape of the interface; every field optional. */
export interface ProfileAddress {
  addressId?: string;
  addressLine1?: string;
  addressLine2?: string;
  addressLine3?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
}

/**
 * Profile fields a user sets about themselves, one row per user (created on the first update).
 * `displayName` and `handle` live on `users`. All of these are private: the public profile shows
 * none of them.
 */
@Entity('user_profiles')
export class UserProfile {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  biography: string | null;

  /** `YYYY-MM-DD`. */
  @Column({ type: 'date', nullable: true })
  dateOfBirth: string | null;

  @Column({ type: 'jsonb', nullable: true })
  address: ProfileAddress | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
