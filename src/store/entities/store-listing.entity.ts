import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation, VirtualColumn } from 'typeorm';
import { Community } from '../../communities/entities/community.entity.js';
import { BaseEntity } from '../../database/base.entity.js';

export const LISTING_KINDS = ['item', 'prize', 'resource'] as const;
export type ListingKind = (typeof LISTING_KINDS)[number];

/** One resource amount of a price. */
export interface PriceComponent {
  resourceTypeId: string;
  amount: number;
}

/**
 * Something for sale in a community's store. Grants `quantity` of an inventory item, a prize or a
 * resource per purchase, for `price` (one or more resource amounts, kept sorted by resource type
 * id: the order the purchase debits them in). `totalSupply` caps the purchases (null: unlimited).
 *
 * Units sold are counted in the listing's shards (`store_listing_shards`, each a share of the
 * supply), not in this row, so purchases do not queue on it: `soldTotal` is their sum, read with
 * the row. The `sold` column (`soldFolded`) is a summary folded from the shards shortly after
 * purchases commit (`SummaryFolds`): never above the true count, never used to decide a sale.
 */
@Entity('store_listings')
@Check('ck_store_listings_supply', 'sold >= 0 AND (total_supply IS NULL OR sold <= total_supply)')
@Index('ix_store_listings_community', ['tenantId', 'communityId', 'position'])
export class StoreListing extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @ManyToOne(() => Community, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'community_id' })
  community?: Relation<Community>;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  imageUrl: string | null;

  @Column({ type: 'varchar', length: 16 })
  kind: ListingKind;

  @Column({ type: 'uuid', nullable: true })
  itemId: string | null;

  @Column({ type: 'uuid', nullable: true })
  prizeId: string | null;

  @Column({ type: 'uuid', nullable: true })
  resourceTypeId: string | null;

  /** Units granted per purchase. */
  @Column({ type: 'int', default: 1 })
  quantity: number;

  @Column({ type: 'jsonb' })
  price: PriceComponent[];

  @Column({ type: 'int', nullable: true })
  totalSupply: number | null;

  /** Column `sold`: Σ shards as last folded (a lower bound of `soldTotal`, caught up shortly after a purchase). */
  @Column({ name: 'sold', type: 'int', default: 0 })
  soldFolded: number;

  /** Units sold: Σ sold over the listing's shards, read in the same statement as the row. */
  @VirtualColumn({
    type: 'int',
    query: (alias) =>
      // eslint-disable-next-line local/own-tables -- the entity's computed column reads its own module's table (TypeORM runs it with every read of the row)
      `SELECT COALESCE(SUM(listing_shard.sold), 0)::int FROM store_listing_shards listing_shard WHERE listing_shard.listing_id = ${alias}.id`,
  })
  soldTotal: number;

  @Column({ type: 'int', nullable: true })
  perUserLimit: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  startsAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  endsAt: Date | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  requirementIds: string[];

  /** false hides the listing from buyers (404). */
  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ type: 'int', default: 0 })
  position: number;
}
