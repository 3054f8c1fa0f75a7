import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import { RangeCache, rangeOf } from '../common/cache/range-cache.js';
import { EVERY_SCOPE } from '../common/cache/read-cache.js';
import { DomainEvents } from '../common/events/domain-events.js';
import type { PageRequest } from '../common/pagination/pagination.js';
import { RankBucketsRepository } from './rank-buckets.repository.js';
import { RankPeople } from './rank-people.js';
import { rankingWithRange, rankScope, RankStore, type LeaderboardPage, type UserRanking } from './rank-store.js';
import './resources.events.js';
import '../users/users.events.js';

export type { RankedUser, UserRanking } from './rank-store.js';

const COMPACT_EVERY_MS = 1000;
/** Leaderboard pages kept per process (the least recently used go first). */
const CACHED_PAGES = 5_000;
/** Players' rankings kept per process. */
const CACHED_RANKINGS = 20_000;
const COMPACT_BATCH = 50_000;
const COMPACT_LOCK = 874_612;

/**
 * Ranks by `earned` (descending). Equal scores share a rank (standard competition ranking:
 * 1, 2, 2, 4); in lists, ties are ordered by who reached the score first (`earned_at`), then by
 * user id. Only users with earned > 0 are ranked. Reads come from the `RankStore` (PostgreSQL's
 * prefix counters, or Redis sorted sets with `REDIS_URL`); PostgreSQL stays the source of truth.
 *
 * The prefix counters are kept whatever the store (they are the fallback of the Redis store).
 * Writers never update counter rows (that would make hot rows and deadlocks): they insert +1/-1
 * deltas. Every second one instance (advisory lock) folds the deltas into the counters in one
 * statement (DELETE ... RETURNING feeding an upsert), atomically for readers. Reads add both.
 */
@Injectable()
export class RankingService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RankingService.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  /** Leaderboard pages, by resource type and score range; see `leaderboard`. */
  private readonly pages: RangeCache<LeaderboardPage>;
  /** Players' rankings, like the pages; see `userRanking`. */
  private readonly rankings: RangeCache<UserRanking>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly buckets: RankBucketsRepository,
    private readonly store: RankStore,
    private readonly events: DomainEvents,
    private readonly people: RankPeople,
    caches: CacheFactory,
  ) {
    this.pages = caches.createRanged<LeaderboardPage>({ name: 'leaderboard pages', max: CACHED_PAGES });
    this.rankings = caches.createRanged<UserRanking>({ name: 'user rankings', max: CACHED_RANKINGS });
    store.onBoardChanged((resourceTypeId, change) => this.dropBoard(rankScope(resourceTypeId, change)));
    // Pages and rankings show handles and display names: a change of one may concern any board (rare).
    events.afterCommit('user.identity-changed', () => this.dropBoard(EVERY_SCOPE));
  }

  /**
   * The user's earned amount of `resourceTypeId` moves from `from` to `to` in the transaction of
   * `em` (`LedgerService`): the cached pages and rankings it may change (those whose scores meet
   * that move; all of the board when the player enters or leaves it) are dropped when that
   * transaction commits, and `resource.earned-changed` is published (the Redis store follows it).
   */
  async changedIn(em: EntityManager, resourceTypeId: string, userId: string, from: number, to: number): Promise<void> {
    const scope = rankScope(resourceTypeId, { from, to });
    this.pages.dropAfterCommit(em, scope);
    this.rankings.dropAfterCommit(em, scope);
    await this.events.publish(em, 'resource.earned-changed', { resourceTypeId, userId, from, to });
  }

  /** The user's balance or earned amount of `resourceTypeId` changes in the transaction of `em` (credits and debits alike). */
  amountsChangedIn(em: EntityManager, resourceTypeId: string, userId: string): void {
    this.people.ownChangedIn(em, resourceTypeId, userId);
    // A ranking shows the player's spendable balance too, which a debit changes without the board.
    this.rankings.dropAfterCommit(em, RangeCache.owner(resourceTypeId, userId.toLowerCase()));
  }

  private dropBoard(scope: string): void {
    this.pages.drop(scope);
    this.rankings.drop(scope);
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
      const { moved, emptied } = await this.buckets.fold(COMPACT_BATCH, tx);
      await this.buckets.dropEmpty(emptied, tx);
      return moved;
    });
  }

  /**
   * A page of the leaderboard and the number of ranked users. Pages are the same for every caller,
   * so each process keeps them for READ_CACHE_MS in front of the store (one read per page and
   * period however many ask at once: concurrent misses share one read). Writes through this
   * process drop them (`changedIn`); writes through other instances show within READ_CACHE_MS
   * (with the Redis store and READ_CACHE_MS=0: one flush after their commit).
   */
  async leaderboard(resourceTypeId: string, page: PageRequest): Promise<LeaderboardPage> {
    return this.pages.get(resourceTypeId, `${page.offset}:${page.limit}`, null, async () => {
      const value = await this.store.leaderboard(resourceTypeId, page);
      return { value, ...rangeOf(value.items.map((i) => i.amount)) };
    });
  }

  /**
   * The user's rank, amounts and up to `around` neighbours on each side, cached like the pages: a
   * move of any player across the scores it shows (or a change of the player's own balance) drops
   * it at the commit, so a player sees their own grant or purchase at once through this process,
   * and any write within READ_CACHE_MS (with the cache bus up: milliseconds).
   */
  userRanking(resourceTypeId: string, userId: string, around: number): Promise<UserRanking> {
    const who = userId.toLowerCase();
    return this.rankings.get(resourceTypeId, `${who}:${around}`, who, async () =>
      rankingWithRange(await this.store.userRanking(resourceTypeId, userId, around)),
    );
  }
}
