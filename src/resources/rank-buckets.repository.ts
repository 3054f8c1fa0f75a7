import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, GenerateSql } from '../database/repository.js';

/**
 * The rank prefix counters (`resource_rank_buckets`) and their pending deltas: folding the deltas
 * into the counters, by one instance at a time (an advisory lock of the caller's transaction).
 */
@Injectable()
export class RankBucketsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Takes the transaction-scoped advisory lock `key`; false when another session holds it. */
  @GenerateSql({ params: [874_612] })
  async tryLock(key: number, em?: EntityManager): Promise<boolean> {
    const [{ locked }] = await this.manager(em).query<{ locked: boolean }[]>('SELECT pg_try_advisory_xact_lock($1) AS locked', [key]);
    return locked;
  }

  /**
   * Moves up to `batch` pending deltas into the counters in one statement: how many moved, and the
   * counters they took to zero (for `dropEmpty`, so it never has to look for them).
   */
  @GenerateSql({ params: [50_000] })
  async fold(batch: number, em?: EntityManager): Promise<{ moved: number; emptied: BucketKey[] }> {
    const [row]: { n: string; emptied: [string, number, string][] }[] = await this.manager(em).query(
      `WITH moved AS (
         DELETE FROM resource_rank_bucket_deltas WHERE id IN (
           SELECT id FROM resource_rank_bucket_deltas ORDER BY id LIMIT ${Math.trunc(batch)} FOR UPDATE SKIP LOCKED)
         RETURNING resource_type_id, level, bucket, delta),
       agg AS (SELECT resource_type_id, level, bucket, SUM(delta)::bigint AS d, COUNT(*) AS n FROM moved GROUP BY 1, 2, 3),
       up AS (
         INSERT INTO resource_rank_buckets (resource_type_id, level, bucket, count)
         SELECT resource_type_id, level, bucket, d FROM agg
         ON CONFLICT (resource_type_id, level, bucket) DO UPDATE SET count = resource_rank_buckets.count + EXCLUDED.count
         RETURNING resource_type_id, level, bucket, count)
       SELECT (SELECT COALESCE(SUM(n), 0) FROM agg)::text AS n,
              (SELECT COALESCE(json_agg(json_build_array(resource_type_id, level, bucket::text)), '[]') FROM up WHERE count = 0) AS emptied`,
    );
    return { moved: Number(row.n), emptied: row.emptied.map(([resourceTypeId, level, bucket]) => ({ resourceTypeId, level, bucket })) };
  }

  /**
   * Deletes these counters if they are still zero. By key: a scan of the whole table for zeros took
   * tens of milliseconds at a million ranked players, on every fold.
   */
  @GenerateSql({ params: [[{ resourceTypeId: '00000000-0000-4000-8000-000000000000', level: 0, bucket: '0' }]] })
  async dropEmpty(keys: BucketKey[], em?: EntityManager): Promise<void> {
    if (keys.length === 0) return;
    await this.manager(em).query(
      `DELETE FROM resource_rank_buckets b
       USING unnest($1::uuid[], $2::smallint[], $3::bigint[]) AS e(resource_type_id, level, bucket)
       WHERE b.resource_type_id = e.resource_type_id AND b.level = e.level AND b.bucket = e.bucket AND b.count = 0`,
      [keys.map((k) => k.resourceTypeId), keys.map((k) => k.level), keys.map((k) => k.bucket)],
    );
  }
}

/** One prefix counter: the board, its level and its bucket (a bigint, as text). */
export interface BucketKey {
  resourceTypeId: string;
  level: number;
  bucket: string;
}
