import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import { RangeCache } from '../common/cache/range-cache.js';
import { EVERY_SCOPE, type ReadCache } from '../common/cache/read-cache.js';
import { DomainEvents } from '../common/events/domain-events.js';
import '../users/users.events.js';
import type { PageRequest } from '../common/pagination/pagination.js';
import { LeaderboardReadModel } from './leaderboard.read-model.js';
import { PostgresRankStore } from './pg-rank-store.js';
import { rankingWithRange, rankScope, type LeaderboardPage, type RankedUser, type UserRanking } from './rank-store.js';
import { SeasonBoardsRepository } from './season-boards.repository.js';
import { LedgerRepository } from './ledger.repository.js';
import { bucketChanges } from './rank-buckets.js';

/**
 * The boards of seasons (the seasons module defines them; the ledger counts each entry on the live
 * seasons that take it, `LedgerService`). A live season is ranked exactly like the all-time board
 * (the same prefix counters, keyed by the season id: shared ranks 1, 2, 2, 4); a closed one is read
 * from its frozen standings, where the final place is the rank (ties broken by who reached the
 * score first, then user id). Always PostgreSQL, also with REDIS_URL (docs/decisions.md "Seasons").
 */
/** A season as the ranking routes need it (the seasons module resolves `current` or an id). */
export interface SeasonBoardRef {
  id: string;
  /** null until its standings are frozen; then the number of players they hold. */
  ranked: number | null;
}

export type SeasonResolver = (tenantId: string, resourceTypeId: string, ref: string) => Promise<SeasonBoardRef>;

@Injectable()
export class SeasonBoardsService {
  private resolver?: SeasonResolver;
  private readonly pages: ReadCache<{ seasonId: string; page: PageRequest }, LeaderboardPage>;
  /**
   * Players' rankings on live season boards, by resource type (so a debit of the resource, which
   * changes the balance they show, finds them) and score range, like the all-time rankings.
   */
  private readonly rankings: RangeCache<UserRanking>;

  constructor(
    private readonly boards: LeaderboardReadModel,
    private readonly repo: SeasonBoardsRepository,
    private readonly ledger: LedgerRepository,
    caches: CacheFactory,
    events: DomainEvents,
  ) {
    this.rankings = caches.createRanged<UserRanking>({ name: 'season rankings', max: 20_000 });
    // Pages and rankings show handles and display names (a rename is rare).
    events.afterCommit('user.identity-changed', () => {
      this.pages.drop(EVERY_SCOPE);
      this.rankings.drop(EVERY_SCOPE);
    });
    this.pages = caches.create<{ seasonId: string; page: PageRequest }, LeaderboardPage>({
      name: 'season leaderboard pages',
      max: 2_000,
      load: async ({ seasonId, page }) => PostgresRankStore.toPage(await this.boards.seasonPage(seasonId, page), page),
    });
  }

  /**
   * The seasons module registers at start-up how `?season=current|<id>` of the ranking routes is
   * resolved (it imports this module, so this module cannot call it).
   */
  resolveSeasonsWith(resolver: SeasonResolver): void {
    this.resolver = resolver;
  }

  resolve(tenantId: string, resourceTypeId: string, ref: string): Promise<SeasonBoardRef> {
    if (!this.resolver) throw new Error('no season resolver registered (SeasonsModule not loaded)');
    return this.resolver(tenantId, resourceTypeId, ref);
  }

  /** A page of the season's board: live (or ended, not yet frozen), or its final standings. */
  leaderboard(season: SeasonBoardRef, page: PageRequest): Promise<LeaderboardPage> {
    return season.ranked === null ? this.liveLeaderboard(season.id, page) : this.finalLeaderboard(season.id, season.ranked, page);
  }

  ranking(season: SeasonBoardRef, resourceTypeId: string, userId: string, around: number): Promise<UserRanking> {
    return season.ranked === null
      ? this.liveRanking(season.id, resourceTypeId, userId, around)
      : this.finalRanking(season.id, resourceTypeId, season.ranked, userId, around);
  }

  /**
   * A player's score on the season's board (of `resourceTypeId`) moves from `from` to `to` in the
   * transaction of `em`: its cached pages, and the rankings that move concerns, go when it commits.
   */
  changedIn(em: EntityManager, seasonId: string, resourceTypeId: string, from: number, to: number): void {
    this.pages.dropAfterCommit(em, seasonId);
    this.rankings.dropAfterCommit(em, rankScope(resourceTypeId, { from, to }));
  }

  /** The player's balance of `resourceTypeId` changes in the transaction of `em`: their season rankings show it. */
  ownChangedIn(em: EntityManager, resourceTypeId: string, userId: string): void {
    this.rankings.dropAfterCommit(em, RangeCache.owner(resourceTypeId, userId.toLowerCase()));
  }

  /** A page of a live (or not yet frozen) season's board; cached for READ_CACHE_MS like the all-time pages. */
  liveLeaderboard(seasonId: string, page: PageRequest): Promise<LeaderboardPage> {
    return this.pages.get(seasonId, `${page.offset}:${page.limit}`, { seasonId, page });
  }

  /** A player's ranking on a live (or not yet frozen) season's board; cached like the all-time rankings. */
  async liveRanking(seasonId: string, resourceTypeId: string, userId: string, around: number): Promise<UserRanking> {
    const who = userId.toLowerCase();
    return this.rankings.get(resourceTypeId, `${seasonId}:${who}:${around}`, who, async () =>
      rankingWithRange(PostgresRankStore.toRanking(await this.boards.seasonAround(seasonId, userId, resourceTypeId, around), around)),
    );
  }

  /** A page of a closed season's final standings (`ranked`: how many they hold). */
  async finalLeaderboard(seasonId: string, ranked: number, page: PageRequest): Promise<LeaderboardPage> {
    const rows = await this.boards.standingsPage(seasonId, page);
    return { items: rows.map(toRanked), total: ranked };
  }

  async finalRanking(seasonId: string, resourceTypeId: string, ranked: number, userId: string, around: number): Promise<UserRanking> {
    const r = await this.boards.standingsAround(seasonId, userId, resourceTypeId, around);
    const balance = Number(r.balance ?? 0);
    if (!r.mine) return { rank: null, amount: 0, balance, totalRanked: ranked, above: [], below: [] };
    const me = r.mine.position;
    const rows = (r.rows ?? []).map(toRanked);
    return {
      rank: me,
      amount: Number(r.mine.score),
      balance,
      totalRanked: ranked,
      above: rows.filter((x) => x.rank < me),
      below: rows.filter((x) => x.rank > me),
    };
  }

  /** Writes a finished season's scores at once (`SeasonsService.importFinished`), with their rank counters. */
  async importScores(em: EntityManager, tenantId: string, seasonId: string, scores: { userId: string; score: number; reachedAt: Date }[]) {
    await this.repo.insertScores(tenantId, seasonId, scores, em);
    this.pages.dropAfterCommit(em, seasonId);
    this.rankings.dropAfterCommit(em, EVERY_SCOPE);
    const changes = scores.flatMap((x) => (x.score > 0 ? bucketChanges(0n, BigInt(x.score)) : []));
    if (changes.length > 0) await this.ledger.addBucketDeltas(seasonId, changes, em);
  }

  /** Freezes the next `limit` final places after place `after` (SeasonBoardsRepository.freezeChunk); how many it took. */
  freezeChunk(seasonId: string, after: number, limit: number): Promise<number> {
    return this.repo.freezeChunk(seasonId, after, limit);
  }

  /** The last final place frozen so far (0: none). */
  frozenThrough(seasonId: string): Promise<number> {
    return this.repo.frozenThrough(seasonId);
  }

  /** How many places the season's standings hold. */
  standingsCount(em: EntityManager, seasonId: string): Promise<number> {
    return this.repo.standingsCount(seasonId, em);
  }

  /** Up to `limit` final places after `afterPosition`, up to `throughPosition`. */
  async places(em: EntityManager, seasonId: string, afterPosition: number, throughPosition: number, limit: number) {
    const rows = await this.repo.placesAfter(seasonId, afterPosition, throughPosition, limit, em);
    return rows.map((r) => ({ position: r.position, userId: r.user_id, score: Number(r.score) }));
  }
}

function toRanked(r: { position: number; user_id: string; handle: string; display_name: string | null; score: string }): RankedUser {
  return { rank: r.position, userId: r.user_id, handle: r.handle, displayName: r.display_name, amount: Number(r.score) };
}
