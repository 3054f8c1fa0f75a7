import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { ReadCache } from '../common/cache/read-cache.js';
import { Clock } from '../common/clock/clock.js';
import { AppConfig } from '../config/app-config.js';
import type { PageRequest } from '../common/pagination/pagination.js';
import { preparedQuery } from '../database/prepared-query.js';
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

interface LeaderRow {
  user_id: string;
  handle: string;
  display_name: string | null;
  earned: string;
}
interface NeighbourRow extends LeaderRow {
  side: 'above' | 'below';
}

/**
 * SQL of "the number of ranked users with a score strictly above `score`" (an SQL expression;
 * `$1` is the resource type): the prefix counters plus the pending deltas, at most 15 buckets per
 * level (see rank-buckets.ts).
 */
const aboveSql = (score: string) => {
  // One LATERAL range scan per level: the bounds depend on the level, and as a plain join the
  // planner cannot see how narrow they are (it chose a parallel seq scan of the whole table).
  const perLevel = (table: string, col: string) => `(SELECT COALESCE(SUM(x.c), 0) FROM generate_series(0, (SELECT lmax FROM lv)) AS l(lvl)
    CROSS JOIN LATERAL (SELECT SUM(t.${col}) AS c FROM ${table} t WHERE t.resource_type_id = $1 AND t.level = l.lvl
      AND t.bucket > (${score} >> (${RANK_BITS} * l.lvl)) AND t.bucket <= (((${score} >> (${RANK_BITS} * (l.lvl + 1))) << ${RANK_BITS}) + 15)) x)`;
  return `(${perLevel('resource_rank_buckets', 'count')} + CASE WHEN (SELECT has_deltas FROM lv) THEN ${perLevel('resource_rank_bucket_deltas', 'delta')} ELSE 0 END)`;
};

/**
 * The `lv` CTE that `aboveSql` reads: the highest level that can hold a non-zero bucket (levels
 * above the top score's are empty, counters and deltas alike: 4 levels instead of 14 for scores
 * up to a million) and whether any delta is pending (most of the time none is).
 */
const LV_CTE = `lv AS (
  SELECT (SELECT COUNT(*) FROM generate_series(1, ${RANK_LEVELS - 1}) k WHERE (top.s >> (${RANK_BITS} * k)) > 0)::int AS lmax,
         EXISTS (SELECT 1 FROM resource_rank_bucket_deltas d WHERE d.resource_type_id = $1) AS has_deltas
  FROM (SELECT COALESCE((SELECT b.earned FROM resource_balances b WHERE b.resource_type_id = $1 AND b.earned > 0
                         ORDER BY b.earned DESC, b.earned_at ASC, b.user_id ASC LIMIT 1), 0) AS s) top)`;

const COMPACT_EVERY_MS = 1000;
/** Leaderboard pages kept per process (the least recently used go first). */
const CACHED_PAGES = 5_000;
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
 * answer the same; each read is one SQL statement, so one snapshot, in which counters and
 * balances agree exactly (they are written in the same transaction), and one round trip.
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
  /** Leaderboard pages, scoped by resource type; see `leaderboard`. */
  private readonly pages: ReadCache<{ resourceTypeId: string; page: PageRequest }, { items: RankedUser[]; total: number }>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: AppConfig,
    clock: Clock,
  ) {
    this.pages = new ReadCache({
      ttlMs: config.READ_CACHE_MS,
      max: CACHED_PAGES,
      clock,
      dataSource,
      load: ({ resourceTypeId, page }) => this.readLeaderboard(resourceTypeId, page),
    });
  }

  /**
   * The earned amounts of `resourceTypeId` change in the transaction of `em` (`LedgerService`):
   * its cached leaderboard pages are dropped when that transaction commits.
   */
  changedIn(em: EntityManager, resourceTypeId: string): void {
    this.pages.dropAfterCommit(em, resourceTypeId);
  }

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
      const [{ locked }] = await tx.query<{ locked: boolean }[]>('SELECT pg_try_advisory_xact_lock($1) AS locked', [COMPACT_LOCK]);
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

  /**
   * A page of the leaderboard and the number of ranked users. Pages are the same for every caller,
   * so each process keeps them for READ_CACHE_MS (one read per page and period however many
   * ask at once: concurrent misses share one query). Writes through this process drop them
   * (`changedIn`); writes through other instances show within READ_CACHE_MS.
   */
  async leaderboard(resourceTypeId: string, page: PageRequest): Promise<{ items: RankedUser[]; total: number }> {
    return this.pages.get(resourceTypeId, `${page.offset}:${page.limit}`, { resourceTypeId, page });
  }

  /**
   * One statement, so one snapshot (counters and balances are written in the same transaction):
   * the page is read from the rank index alone (index-only scan) and only its rows are joined to users.
   */
  private async readLeaderboard(resourceTypeId: string, page: PageRequest): Promise<{ items: RankedUser[]; total: number }> {
    // Not prepared: a generic plan does not know OFFSET/LIMIT and sorted the whole table (300 ms).
    const [{ r }]: { r: { rows: LeaderRow[] | null; first: string | null; total: string } }[] = await this.dataSource.query(
      `WITH ${LV_CTE},
       pg AS (
         SELECT b.user_id, b.earned, b.earned_at FROM resource_balances b
         WHERE b.resource_type_id = $1 AND b.earned > 0
         ORDER BY b.earned DESC, b.earned_at ASC, b.user_id ASC OFFSET $2 LIMIT $3),
       first AS (SELECT max(earned) AS s FROM pg)
       SELECT json_build_object(
         'rows', (SELECT json_agg(json_build_object('user_id', pg.user_id, 'handle', u.handle, 'display_name', u.display_name, 'earned', pg.earned::text)
                    ORDER BY pg.earned DESC, pg.earned_at ASC, pg.user_id ASC) FROM pg JOIN users u ON u.id = pg.user_id),
         'first', (SELECT ${aboveSql('first.s')}::text FROM first WHERE first.s IS NOT NULL),
         'total', (SELECT ${aboveSql('0::bigint')}::text)) AS r`,
      [resourceTypeId, page.offset, page.limit],
    );
    const rows = r.rows ?? [];
    const total = Number(r.total);
    let rank = 0;
    const items = rows.map((row, i) => {
      const amount = Number(row.earned);
      if (i === 0) rank = Number(r.first) + 1;
      else if (amount !== Number(rows[i - 1].earned)) rank = page.offset + i + 1;
      return { rank, userId: row.user_id, handle: row.handle, displayName: row.display_name, amount };
    });
    return { items, total };
  }

  /**
   * The user's rank, amounts and up to `around` neighbours on each side. One statement, so one
   * snapshot and one round trip: the user's row, the neighbours by index range scans (same score
   * first, then the next scores), and the prefix-counter rank of every score involved.
   */
  async userRanking(resourceTypeId: string, userId: string, around: number): Promise<UserRanking> {
    // A literal (0..10, validated), not a parameter: the prepared statement's generic plan then
    // knows each LIMIT is tiny (a parameter is assumed to fetch 10 % of the table).
    const limit = Math.max(0, Math.min(100, Math.trunc(around)));
    const [{ r }] = await preparedQuery<{
      r: { mine: { earned: string; balance: string } | null; rows: NeighbourRow[] | null; counts: Record<string, string> };
    }>(
      this.dataSource,
      `WITH ${LV_CTE},
       mine AS (
         SELECT earned, balance, earned_at FROM resource_balances WHERE resource_type_id = $1 AND user_id = $2),
       m AS (SELECT earned, earned_at FROM mine WHERE earned > 0),
       -- Each side is a LATERAL subquery, so its LIMIT applies to an index range that starts at
       -- the user's own score (a plain join would walk the index from the top and filter).
       nb AS (
         SELECT x.side, x.user_id, u.handle, u.display_name, x.earned, x.earned_at FROM m CROSS JOIN LATERAL (
           (SELECT 'above' AS side, b.user_id, b.earned, b.earned_at FROM resource_balances b
              WHERE b.resource_type_id = $1 AND b.earned > 0 AND b.earned = m.earned AND (b.earned_at, b.user_id) < (m.earned_at, $2::uuid)
              ORDER BY b.earned_at DESC, b.user_id DESC LIMIT ${limit})
           UNION ALL
           (SELECT 'above', b.user_id, b.earned, b.earned_at FROM resource_balances b
              WHERE b.resource_type_id = $1 AND b.earned > 0 AND b.earned > m.earned
              ORDER BY b.earned ASC, b.earned_at DESC, b.user_id DESC LIMIT ${limit})
           UNION ALL
           (SELECT 'below', b.user_id, b.earned, b.earned_at FROM resource_balances b
              WHERE b.resource_type_id = $1 AND b.earned > 0 AND b.earned = m.earned AND (b.earned_at, b.user_id) > (m.earned_at, $2::uuid)
              ORDER BY b.earned_at ASC, b.user_id ASC LIMIT ${limit})
           UNION ALL
           (SELECT 'below', b.user_id, b.earned, b.earned_at FROM resource_balances b
              WHERE b.resource_type_id = $1 AND b.earned > 0 AND b.earned < m.earned
              ORDER BY b.earned DESC, b.earned_at ASC, b.user_id ASC LIMIT ${limit})) x
         JOIN users u ON u.id = x.user_id),
       scores AS (SELECT DISTINCT s FROM (SELECT 0::bigint UNION ALL SELECT earned FROM m UNION ALL SELECT earned FROM nb) z(s)),
       counted AS (SELECT s, ${aboveSql('scores.s')} AS above FROM scores)
       SELECT json_build_object(
         'mine', (SELECT json_build_object('earned', earned::text, 'balance', balance::text) FROM mine),
         'rows', (SELECT json_agg(json_build_object('side', side, 'user_id', user_id, 'handle', handle, 'display_name', display_name, 'earned', earned::text)
                    ORDER BY earned DESC, earned_at ASC, user_id ASC) FROM nb),
         'counts', (SELECT json_object_agg(s::text, above::text) FROM counted)) AS r`,
      [resourceTypeId, userId],
    );
    const amount = r.mine ? Number(r.mine.earned) : 0;
    const balance = r.mine ? Number(r.mine.balance) : 0;
    const above = (score: number | string) => Number(r.counts[String(score)]);
    const totalRanked = above(0);
    if (amount === 0) return { rank: null, amount, balance, totalRanked, above: [], below: [] };
    const rows = r.rows ?? [];
    const toRanked = (n: NeighbourRow): RankedUser => ({
      rank: above(n.earned) + 1,
      userId: n.user_id,
      handle: n.handle,
      displayName: n.display_name,
      amount: Number(n.earned),
    });
    // Rows come in leaderboard order: the nearest above are the last ones of their side.
    const aboveRows =
      around > 0
        ? rows
            .filter((n) => n.side === 'above')
            .slice(-around)
            .map(toRanked)
        : [];
    const belowRows = rows
      .filter((n) => n.side === 'below')
      .slice(0, around)
      .map(toRanked);
    return { rank: above(amount) + 1, amount, balance, totalRanked, above: aboveRows, below: belowRows };
  }
}
