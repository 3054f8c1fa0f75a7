import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { RANK_BITS, RANK_LEVELS } from './rank-buckets.js';

export interface RankedUser {
  rank: number;
  userId: string;
  handle: string;
  displayName: string | null;
  amount: number;
}

export interface UserRanking {
  /** null when the user has earned nothing of this resource (unranked). */
  rank: number | null;
  amount: number;
  balance: number;
  totalRanked: number;
  above: RankedUser[];
  below: RankedUser[];
}

const COMPACT_EVERY_MS = 1000;
const COMPACT_BATCH = 50_000;
const COMPACT_LOCK = 874_612;

/**
 * Ranks by `earned` (descending). Equal scores share a rank (standard competition ranking:
 * 1, 2, 2, 4); in lists, ties are ordered by who reached the score first (`earned_at`), then by
 * user id. Only users with earned > 0 are ranked.
 *
 * The rank of a score s is 1 + (number of users with a score > s), read from the base-16 prefix
 * counters (`rank-buckets.ts`): at most 15 x 14 index-range rows, whatever the population, so no
 * row-by-row counting. Everything lives in PostgreSQL (no per-process state), so all instances
 * answer the same; each read is one REPEATABLE READ snapshot, in which counters and balances
 * agree exactly (they are written in the same transaction).
 *
 * Writers never update counter rows (that would make hot rows and deadlocks): they insert +1/-1
 * deltas. Every second one instance (advisory lock) folds the deltas into the counters in one
 * statement (DELETE ... RETURNING feeding an upsert), atomically for readers. Reads add both.
 */
@Injectable()
export class RankingService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RankingService.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.compact()
        .catch((e: unknown) => this.logger.debug(`rank compaction skipped: ${String(e)}`))
        .finally(() => (this.running = undefined));
    }, COMPACT_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Folds pending counter deltas into the counters. Returns how many deltas were folded. */
  async compact(): Promise<number> {
    return this.dataSource.transaction(async (tx) => {
      const [{ locked }] = await tx.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [COMPACT_LOCK]);
      if (!locked) return 0;
      const res: { n: string }[] = await tx.query(
        `WITH moved AS (
           DELETE FROM resource_rank_bucket_deltas WHERE id IN (
             SELECT id FROM resource_rank_bucket_deltas ORDER BY id LIMIT ${COMPACT_BATCH} FOR UPDATE SKIP LOCKED)
           RETURNING resource_type_id, level, bucket, delta),
         agg AS (SELECT resource_type_id, level, bucket, SUM(delta)::bigint AS d, COUNT(*) AS n FROM moved GROUP BY 1, 2, 3),
         up AS (
           INSERT INTO resource_rank_buckets (resource_type_id, level, bucket, count)
           SELECT resource_type_id, level, bucket, d FROM agg
           ON CONFLICT (resource_type_id, level, bucket) DO UPDATE SET count = resource_rank_buckets.count + EXCLUDED.count)
         SELECT COALESCE(SUM(n), 0)::text AS n FROM agg`,
      );
      const n = Number(res[0].n);
      if (n > 0) await tx.query('DELETE FROM resource_rank_buckets WHERE count = 0');
      return n;
    });
  }

  /** For each score: the number of ranked users with a strictly higher score. */
  async countAbove(em: EntityManager, resourceTypeId: string, scores: number[]): Promise<Map<number, number>> {
    const rows: { score: string; above: string }[] = await em.query(
      `SELECT s.score::text AS score, (
         SELECT COALESCE(SUM(x.c), 0)::text FROM (
           SELECT b.count AS c FROM generate_series(0, ${RANK_LEVELS - 1}) AS l(lvl)
             JOIN resource_rank_buckets b ON b.resource_type_id = $1 AND b.level = l.lvl
              AND b.bucket > (s.score >> (${RANK_BITS} * l.lvl)) AND b.bucket <= (((s.score >> (${RANK_BITS} * (l.lvl + 1))) << ${RANK_BITS}) + 15)
           UNION ALL
           SELECT d.delta AS c FROM generate_series(0, ${RANK_LEVELS - 1}) AS l(lvl)
             JOIN resource_rank_bucket_deltas d ON d.resource_type_id = $1 AND d.level = l.lvl
              AND d.bucket > (s.score >> (${RANK_BITS} * l.lvl)) AND d.bucket <= (((s.score >> (${RANK_BITS} * (l.lvl + 1))) << ${RANK_BITS}) + 15)
         ) x) AS above
       FROM unnest($2::bigint[]) AS s(score)`,
      [resourceTypeId, scores.map(String)],
    );
    return new Map(rows.map((r) => [Number(r.score), Number(r.above)]));
  }

  /** A page of the leaderboard and the number of ranked users, from one snapshot. */
  leaderboard(resourceTypeId: string, page: PageRequest): Promise<{ items: RankedUser[]; total: number }> {
    return this.snapshot(async (tx) => {
      const rows: { user_id: string; handle: string; display_name: string | null; earned: string }[] = await tx.query(
        `SELECT b.user_id, u.handle, u.display_name, b.earned FROM resource_balances b JOIN users u ON u.id = b.user_id
         WHERE b.resource_type_id = $1 AND b.earned > 0
         ORDER BY b.earned DESC, b.earned_at ASC, b.user_id ASC OFFSET $2 LIMIT $3`,
        [resourceTypeId, page.offset, page.limit],
      );
      const scores = [0, ...(rows.length ? [Number(rows[0].earned)] : [])];
      const above = await this.countAbove(tx, resourceTypeId, scores);
      const total = above.get(0)!;
      let rank = 0;
      const items = rows.map((r, i) => {
        const amount = Number(r.earned);
        if (i === 0) rank = above.get(amount)! + 1;
        else if (amount !== Number(rows[i - 1].earned)) rank = page.offset + i + 1;
        return { rank, userId: r.user_id, handle: r.handle, displayName: r.display_name, amount };
      });
      return { items, total };
    });
  }

  /** The user's rank, amounts and up to `around` neighbours on each side, from one snapshot. */
  userRanking(resourceTypeId: string, userId: string, around: number): Promise<UserRanking> {
    return this.snapshot(async (tx) => {
      const mine: { earned: string; balance: string; earned_at: string }[] = await tx.query(
        'SELECT earned, balance, earned_at::text AS earned_at FROM resource_balances WHERE resource_type_id = $1 AND user_id = $2',
        [resourceTypeId, userId],
      );
      const amount = mine.length ? Number(mine[0].earned) : 0;
      const balance = mine.length ? Number(mine[0].balance) : 0;
      if (amount === 0) {
        const total = (await this.countAbove(tx, resourceTypeId, [0])).get(0)!;
        return { rank: null, amount, balance, totalRanked: total, above: [], below: [] };
      }
      const p = [resourceTypeId, mine[0].earned, mine[0].earned_at, userId, around];
      const cols = 'b.user_id, u.handle, u.display_name, b.earned, b.earned_at';
      // Neighbours in leaderboard order: same score first, then the next scores (index range scans).
      const rows: { side: 'above' | 'below'; user_id: string; handle: string; display_name: string | null; earned: string }[] = await tx.query(
        `SELECT * FROM (
         (SELECT 'above' AS side, 1 AS part, ${cols} FROM resource_balances b JOIN users u ON u.id = b.user_id
            WHERE b.resource_type_id = $1 AND b.earned = $2 AND (b.earned_at, b.user_id) < ($3::timestamptz, $4::uuid)
            ORDER BY b.earned_at DESC, b.user_id DESC LIMIT $5)
         UNION ALL
         (SELECT 'above', 2, ${cols} FROM resource_balances b JOIN users u ON u.id = b.user_id
            WHERE b.resource_type_id = $1 AND b.earned > $2
            ORDER BY b.earned ASC, b.earned_at DESC, b.user_id DESC LIMIT $5)
         UNION ALL
         (SELECT 'below', 1, ${cols} FROM resource_balances b JOIN users u ON u.id = b.user_id
            WHERE b.resource_type_id = $1 AND b.earned = $2 AND (b.earned_at, b.user_id) > ($3::timestamptz, $4::uuid)
            ORDER BY b.earned_at ASC, b.user_id ASC LIMIT $5)
         UNION ALL
         (SELECT 'below', 2, ${cols} FROM resource_balances b JOIN users u ON u.id = b.user_id
            WHERE b.resource_type_id = $1 AND b.earned < $2 AND b.earned > 0
            ORDER BY b.earned DESC, b.earned_at ASC, b.user_id ASC LIMIT $5)
         ) n ORDER BY n.earned DESC, n.earned_at ASC, n.user_id ASC`,
        p,
      );
      const scores = [...new Set([0, amount, ...rows.map((r) => Number(r.earned))])];
      const aboveCount = await this.countAbove(tx, resourceTypeId, scores);
      const toRanked = (r: (typeof rows)[number]): RankedUser => ({
        rank: aboveCount.get(Number(r.earned))! + 1,
        userId: r.user_id,
        handle: r.handle,
        displayName: r.display_name,
        amount: Number(r.earned),
      });
      // Rows come in leaderboard order: the nearest above are the last ones of their side.
      const above = around > 0 ? rows.filter((r) => r.side === 'above').slice(-around).map(toRanked) : [];
      const below = rows.filter((r) => r.side === 'below').slice(0, around).map(toRanked);
      return { rank: aboveCount.get(amount)! + 1, amount, balance, totalRanked: aboveCount.get(0)!, above, below };
    });
  }

  private snapshot<T>(fn: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction('REPEATABLE READ', async (tx) => {
      // The planner cannot see how narrow the bucket ranges are and may cost these tiny queries
      // high enough to JIT-compile them, which takes longer than running them.
      await tx.query('SET LOCAL jit = off');
      return fn(tx);
    });
  }
}
