import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../common/pagination/pagination.js';
import { LeaderboardReadModel, type AroundRow, type LeaderboardPageRow, type NeighbourRow } from './leaderboard.read-model.js';
import { RankStore, type LeaderboardPage, type RankedUser, type UserRanking } from './rank-store.js';

/**
 * Ranks from PostgreSQL: the rank of a score s is 1 + (number of users with a score > s), read
 * from the base-16 prefix counters (`rank-buckets.ts`; RankingService folds their deltas): at most
 * 15 x 14 index-range rows, whatever the population, so no row-by-row counting. Each read is one
 * SQL statement, so one snapshot, in which counters and balances agree exactly (they are written
 * in the same transaction), and one round trip. Nothing per process: all instances answer the same.
 */
@Injectable()
export class PostgresRankStore extends RankStore {
  constructor(private readonly leaderboards: LeaderboardReadModel) {
    super();
  }

  /**
   * One statement: the page is read from the rank index alone (index-only scan) and only its rows
   * are joined to users.
   */
  async leaderboard(resourceTypeId: string, page: PageRequest): Promise<LeaderboardPage> {
    return PostgresRankStore.toPage(await this.leaderboards.page(resourceTypeId, page), page);
  }

  /**
   * One statement: the user's row, the neighbours by index range scans (same score first, then the
   * next scores), and the prefix-counter rank of every score involved.
   */
  async userRanking(resourceTypeId: string, userId: string, around: number): Promise<UserRanking> {
    return PostgresRankStore.toRanking(await this.leaderboards.around(resourceTypeId, userId, around), around);
  }

  /** A page of any board read by `LeaderboardReadModel` (all-time or a live season's). */
  static toPage(r: LeaderboardPageRow, page: PageRequest): LeaderboardPage {
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

  /** A user's ranking on any board read by `LeaderboardReadModel`. */
  static toRanking(r: AroundRow, around: number): UserRanking {
    const amount = r.mine ? Number(r.mine.earned) : 0;
    const balance = r.mine ? Number(r.mine.balance) : 0;
    const above = (score: number | string) => Number(r.counts[String(score)]);
    const totalRanked = above(0);
    if (amount <= 0) return { rank: null, amount: Math.max(0, amount), balance, totalRanked, above: [], below: [] };
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
