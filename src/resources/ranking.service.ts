import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import type { ReadCache } from '../common/cache/read-cache.js';
import type { PageRequest } from '../common/pagination/pagination.js';
import { LeaderboardReadModel, type NeighbourRow } from './leaderboard.read-model.js';
import { RankBucketsRepository } from './rank-buckets.repository.js';

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
    private readonly leaderboards: LeaderboardReadModel,
    private readonly buckets: RankBucketsRepository,
    caches: CacheFactory,
  ) {
    this.pages = caches.create<{ resourceTypeId: string; page: PageRequest }, { items: RankedUser[]; total: number }>({
      name: 'leaderboard pages',
      max: CACHED_PAGES,
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
      if (!(await this.buckets.tryLock(COMPACT_LOCK, tx))) return 0;
      const n = await this.buckets.fold(COMPACT_BATCH, tx);
      if (n > 0) await this.buckets.dropEmpty(tx);
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
    const r = await this.leaderboards.page(resourceTypeId, page);
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
    const r = await this.leaderboards.around(resourceTypeId, userId, around);
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
