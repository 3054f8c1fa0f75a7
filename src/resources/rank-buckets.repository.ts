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

  /** Moves up to `batch` pending deltas into the counters in one statement; how many moved. */
  @GenerateSql({ params: [50_000] })
  async fold(batch: number, em?: EntityManager): Promise<number> {
    const res: { n: string }[] = await this.manager(em).query(
      `WITH moved AS (
         DELETE FROM resource_rank_bucket_deltas WHERE id IN (
           SELECT id FROM resource_rank_bucket_deltas ORDER BY id LIMIT ${Math.trunc(batch)} FOR UPDATE SKIP LOCKED)
         RETURNING resource_type_id, level, bucket, delta),
       agg AS (SELECT resource_type_id, level, bucket, SUM(delta)::bigint AS d, COUNT(*) AS n FROM moved GROUP BY 1, 2, 3),
       up AS (
         INSERT INTO resource_rank_buckets (resource_type_id, level, bucket, count)
         SELECT resource_type_id, level, bucket, d FROM agg
         ON CONFLICT (resource_type_id, level, bucket) DO UPDATE SET count = resource_rank_buckets.count + EXCLUDED.count)
       SELECT COALESCE(SUM(n), 0)::text AS n FROM agg`,
    );
    return Number(res[0].n);
  }

  @GenerateSql()
  async dropEmpty(em?: EntityManager): Promise<void> {
    await this.manager(em).query('DELETE FROM resource_rank_buckets WHERE count = 0');
  }
}
