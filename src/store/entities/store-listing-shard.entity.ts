import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { StoreListing } from './store-listing.entity.js';

/**
 * One share of a listing's supply (docs/decisions.md, "Store and prizes"). Every listing has
 * `LISTING_SHARDS` of them (0..N-1); a purchase takes one unit of ONE shard with a conditional
 * UPDATE, so purchases of one listing lock different rows instead of queueing on one.
 *
 * `cap` is the shard's share of `total_supply` (null: unlimited, the shard only counts); the caps
 * add up to `total_supply` at all times (the management API redistributes them under the listing
 * row's lock) and `sold <= cap` (CHECK), so Σ sold never exceeds the supply. The listing's units
 * sold are Σ sold over its shards.
 */
@Entity('store_listing_shards')
@Check('ck_store_listing_shards_supply', 'sold >= 0 AND (cap IS NULL OR sold <= cap)')
export class StoreListingShard {
  @PrimaryColumn({ type: 'uuid' })
  listingId: string;

  @ManyToOne(() => StoreListing, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'listing_id' })
  listing?: Relation<StoreListing>;

  @PrimaryColumn({ type: 'smallint' })
  shard: number;

  @Column({ type: 'int', nullable: true })
  cap: number | null;

  @Column({ type: 'int', default: 0 })
  sold: number;
}
