import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';
import { type ListingKind, type PriceComponent, StoreListing } from './store-listing.entity.js';

/**
 * A completed purchase. Written first in the purchase transaction: the unique (tenant, user, nonce)
 * makes the nonce an idempotency key (a concurrent duplicate waits on it, then replays). The
 * `fingerprint` (sha256 of listing id + normalised requirement data) tells a replay of the same
 * request from a different request with a reused nonce. `requirementDataEncrypted` holds the data
 * the buyer gave (for fulfilment), encrypted.
 */
@Entity('store_purchases')
@Index('uq_store_purchases_nonce', ['tenantId', 'userId', 'nonce'], { unique: true })
@Index('ix_store_purchases_user_community', ['tenantId', 'userId', 'communityId', 'createdAt'])
@Index('ix_store_purchases_listing', ['listingId', 'createdAt'])
export class StorePurchase {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'uuid' })
  listingId: string;

  @ManyToOne(() => StoreListing, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'listing_id' })
  listing?: Relation<StoreListing>;

  @Column({ type: 'uuid' })
  communityId: string;

  @Column({ type: 'varchar', length: 128 })
  nonce: string;

  @Column({ type: 'char', length: 64 })
  fingerprint: string;

  @Column({ type: 'varchar', length: 16 })
  kind: ListingKind;

  @Column({ type: 'uuid', nullable: true })
  itemId: string | null;

  @Column({ type: 'uuid', nullable: true })
  prizeId: string | null;

  @Column({ type: 'uuid', nullable: true })
  resourceTypeId: string | null;

  @Column({ type: 'int' })
  quantity: number;

  /** The price paid (a copy: later price changes do not rewrite history). */
  @Column({ type: 'jsonb' })
  price: PriceComponent[];

  @Column({ type: 'text', nullable: true })
  requirementDataEncrypted: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
