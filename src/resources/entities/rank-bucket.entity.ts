import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber } from '../bigint.transformer.js';

/**
 * Rank counters (see RankingService): how many users of a resource type have an `earned` score
 * whose base-16 prefix at `level` is `bucket` (bucket = earned >> 4*level). Bucket 0 is never
 * stored (it is never needed to count "users above"). Compacted totals live here; writers only
 * insert into `resource_rank_bucket_deltas`, which a background step folds in. No foreign keys:
 * these are derived counters, rebuilt from `resource_balances` if ever needed.
 */
@Entity('resource_rank_buckets')
export class RankBucket {
  @PrimaryColumn({ type: 'uuid' })
  resourceTypeId: string;

  @PrimaryColumn({ type: 'smallint' })
  level: number;

  @PrimaryColumn({ type: 'bigint', transformer: bigintNumber })
  bucket: number;

  @Column({ type: 'bigint', transformer: bigintNumber })
  count: number;
}

/** Not yet compacted +1/-1 changes of `resource_rank_buckets` (insert-only for writers: no hot rows). */
@Entity('resource_rank_bucket_deltas')
@Index('ix_resource_rank_bucket_deltas_lookup', ['resourceTypeId', 'level', 'bucket'])
export class RankBucketDelta {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'uuid' })
  resourceTypeId: string;

  @Column({ type: 'smallint' })
  level: number;

  @Column({ type: 'bigint', transformer: bigintNumber })
  bucket: number;

  @Column({ type: 'integer' })
  delta: number;
}
