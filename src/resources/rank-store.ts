import { RangeCache, rangeOf, type Ranged } from '../common/cache/range-cache.js';
import type { PageRequest } from '../common/pagination/pagination.js';

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

/** A player's `earned` moved from `from` to `to` (both > 0: they stayed ranked). */
export interface ScoreChange {
  from: number;
  to: number;
}

export interface LeaderboardPage {
  items: RankedUser[];
  /** The number of ranked users. */
  total: number;
}

/**
 * Where the ranks of a board (the users of one resource type by `earned`, event score boards
 * included: an event ranks by its scoped resource) are read from. Same rules for every store:
 * earned DESC, then who reached the amount first (`earned_at`), then user id; equal amounts share
 * a rank (1, 2, 2, 4); only earned > 0 is ranked. PostgreSQL (`resource_balances` and its prefix
 * counters) is always the source of truth, written by the ledger in its transaction.
 *
 * - `PostgresRankStore` (default): the prefix counters, read in one statement per request.
 * - `RedisRankStore` (`REDIS_URL`): sorted sets shared by every instance, kept up to date after
 *   each commit and rebuilt from PostgreSQL; whenever they cannot answer exactly, it reads PostgreSQL.
 */
export abstract class RankStore {
  private readonly listeners: ((resourceTypeId: string, change?: ScoreChange) => void)[] = [];

  /**
   * `listener` hears of every board whose ranks this store changed later than the commit that
   * changed them (the Redis store, once its copy landed): the caches in front drop it again, or a
   * page read between the commit and that moment would be kept. `change`: only that player's
   * move changed it (none: anything may have).
   */
  onBoardChanged(listener: (resourceTypeId: string, change?: ScoreChange) => void): void {
    this.listeners.push(listener);
  }

  protected boardChanged(resourceTypeId: string, change?: ScoreChange): void {
    for (const listener of this.listeners) listener(resourceTypeId, change);
  }

  abstract leaderboard(resourceTypeId: string, page: PageRequest): Promise<LeaderboardPage>;
  /** The user's rank, amounts and up to `around` neighbours on each side. */
  abstract userRanking(resourceTypeId: string, userId: string, around: number): Promise<UserRanking>;
}

/**
 * The cache scope (RangeCache) a change of a board drops: the range of the player's move while
 * they stay ranked, else (entering or leaving the board, which changes its total; or unknown) the
 * whole board.
 */
export function rankScope(boardId: string, change?: ScoreChange): string {
  return change && change.from > 0 && change.to > 0 ? RangeCache.range(boardId, change.from, change.to) : boardId;
}

/** A ranking with the scores it shows (none for an unranked player), for a RangeCache. */
export function rankingWithRange(value: UserRanking): Ranged<UserRanking> {
  const shown = value.rank === null ? [] : [value.amount, ...value.above.map((u) => u.amount), ...value.below.map((u) => u.amount)];
  return { value, ...rangeOf(shown) };
}
