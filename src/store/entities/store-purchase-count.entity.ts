import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { StoreListing } from './store-listing.entity.js';

/**
 * Purchases per (listing, user), for the per-user limit: raised with a conditional upsert
 * (`... DO UPDATE SET count = count + 1 WHERE count + 1 <= limit`) in the purchase transaction,
 * which also serialises one user's concurrent purchases of one listing.
 */
@Entity('store_purchase_counts')
export class StorePurchaseCount {
  @PrimaryColumn({ type: 'uuid' })
  listingId: string;

  @ManyToOne(() => StoreListing, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'listing_id' })
  listing?: Relation<StoreListing>;

  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'int' })
  count: number;
}
