import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { AppConfig } from '../config/app-config.js';
import { InventoryService } from '../inventory/inventory.service.js';
import { NotificationType } from '../notifications/notification-types.js';
import { NotificationsService, type NotifyInput } from '../notifications/notifications.service.js';
import { PrizesService } from '../prizes/prizes.service.js';
import { LedgerService } from '../resources/ledger.service.js';
import { SeasonBoardsService } from '../resources/season-boards.service.js';
import type { Season, SeasonReward } from './entities/season.entity.js';
import { nextBatchEnd } from './season-payout-plan.js';
import { SeasonsRepository } from './seasons.repository.js';
import type { SeasonRewarded } from './seasons.events.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { rewardRange, SeasonsService } from './seasons.service.js';

/**
 * Entries written just before a season's end may commit a little after it (a transaction's
 * statements run after its clock read): a season is frozen this long after its end. Longer than
 * any transaction may hold a lock (DB_LOCK_TIMEOUT_MS) and run.
 */
export const SEASON_CLOSE_GRACE_MS = 10_000;
/**
 * At most this many item and prize grants per batch: they are paid one at a time (their own
 * statements and savepoint each), and their supply rows stay locked until the batch commits.
 */
export const ONE_BY_ONE_PER_BATCH = 25;
/** Places per transaction when a batch is paid winner by winner (after a batch refused as a whole). */
export const FALLBACK_BATCH = 25;

/**
 * The season worker: opens the next season of each schedule and closes ended seasons, in every
 * instance (unless `SEASON_WORKER_ENABLED=false`), every `SEASON_POLL_INTERVAL_MS`.
 *
 * Closing follows the leased-job pattern of the mint worker: a season is claimed with `FOR UPDATE
 * SKIP LOCKED` in a short transaction that leases it (`SEASON_CLOSE_LEASE_MS`, renewed after each
 * batch); an instance killed mid-close leaves it to another after the lease. Each step is
 * idempotent: the freeze writes the standings once (their primary key), and each reward is paid in
 * the transaction that inserts its `season_payouts` row (primary key season, user, reward): a
 * second run, or a second instance racing the first, skips what was paid and pays each winner once.
 * The ledger, item and prize grants also carry an idempotency key per (season, reward, user).
 *
 * A batch (`SEASON_PAYOUT_BATCH` places) costs a few statements whatever its size: the payouts in
 * one, the notifications in one, each resource type's credits in a few (`LedgerService.creditMany`,
 * last, so the balance rows are held only to the commit), the outbox in one at the commit. Item
 * and prize rewards are granted one at a time, at most `ONE_BY_ONE_PER_BATCH` per batch. A batch
 * whose credits are refused as a whole (a user gone, a key used for another operation...) is paid
 * again winner by winner, which records each refusal as before.
 */
@Injectable()
export class SeasonCloser implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(SeasonCloser.name);
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: SeasonsRepository,
    private readonly seasons: SeasonsService,
    private readonly boards: SeasonBoardsService,
    private readonly ledger: LedgerService,
    private readonly inventory: InventoryService,
    private readonly prizes: PrizesService,
    private readonly notifications: NotificationsService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.SEASON_WORKER_ENABLED) return;
    this.timer = setInterval(() => {
      if (this.running || this.stopped) return;
      this.running = this.runOnce()
        .catch((e: unknown) => {
          this.log.error(`season pass failed: ${(e as Error).message}`);
          return 0;
        })
        .finally(() => (this.running = null));
    }, this.config.SEASON_POLL_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Opens the seasons schedules need, then closes every season due; how many it closed. Tests call it directly. */
  async runOnce(): Promise<number> {
    await this.seasons.openDueSeasons();
    let closed = 0;
    for (;;) {
      if (this.stopped) return closed;
      const season = await this.claim();
      if (!season) return closed;
      if (await this.close(season)) closed++;
    }
  }

  private lease(): Date {
    return new Date(this.clock.nowMs() + this.config.SEASON_CLOSE_LEASE_MS);
  }

  private claim(): Promise<Season | null> {
    return this.dataSource.transaction((em) => {
      const now = this.clock.now();
      return this.repo.claimClosing(new Date(now.getTime() - SEASON_CLOSE_GRACE_MS), now, this.lease(), this.owner, em);
    });
  }

  /** Freezes, pays and closes the season; false when the lease was lost on the way (another instance goes on). */
  private async close(claimed: Season): Promise<boolean> {
    let season = claimed;
    const keepLease = () => this.repo.renewLease(claimed.id, this.owner, this.lease());
    if (!season.frozenAt) {
      const frozen = await this.freeze(season, keepLease);
      if (!frozen || !(await keepLease())) return false;
      season = frozen;
    }
    const ranked = season.ranked ?? 0;
    const planned = season.rewards.map((r) => ({ ...rewardRange(r, ranked), oneByOne: r.type !== 'resource' }));
    const through = Math.max(0, ...planned.map((r) => r.to));
    for (let after = season.paidThrough; after < through;) {
      const to = nextBatchEnd(planned, after, through, this.config.SEASON_PAYOUT_BATCH, ONE_BY_ONE_PER_BATCH);
      const started = performance.now();
      if (this.stopped || !(await this.payPlaces(season, after, to, keepLease)) || !(await keepLease())) return false;
      after = to;
      if (after < through) await this.rest(started);
    }
    await this.dataSource.transaction(async (em) => {
      if (!(await this.repo.markClosed(season.id, this.clock.now(), em))) return;
      await this.events.publish(em, 'season.closed', {
        tenantId: season.tenantId,
        seasonId: season.id,
        communityId: season.communityId,
        resourceTypeId: season.resourceTypeId,
        ranked,
        paidThrough: through,
      });
    });
    this.log.log(`season ${season.id} closed: ${ranked} ranked, rewards paid through place ${through}`);
    return true;
  }

  /**
   * Freezes the season's standings in chunks of `SEASON_FREEZE_CHUNK` places, each its own short
   * statement, resting between them (`rest`); then marks the season frozen with its number of
   * places. The board no longer changes once the season ended (and the grace for transactions in
   * flight passed), so the chunks together are the standings of one moment. Resumes after the
   * last place written (a crash, another instance), and a second freeze changes nothing. Null when
   * the lease was lost on the way (`keepLease` said false; another instance goes on).
   */
  async freeze(season: Season, keepLease: () => Promise<boolean> = async () => true): Promise<Season | null> {
    const chunk = this.config.SEASON_FREEZE_CHUNK;
    for (let after = await this.boards.frozenThrough(season.id); ;) {
      const started = performance.now();
      const taken = await this.boards.freezeChunk(season.id, after, chunk);
      if (taken < chunk) break;
      after += taken;
      if (this.stopped || !(await keepLease())) return null;
      await this.rest(started);
    }
    await this.dataSource.transaction(async (em) => {
      await this.repo.markFrozen(season.id, await this.boards.standingsCount(em, season.id), this.clock.now(), em);
      this.seasons.frozenIn(em, season.tenantId);
    });
    return (await this.repo.findById(season.tenantId, season.id))!;
  }

  /** Leaves live requests the share SEASON_CLOSE_REST_PERCENT says after a step of the close that began at `started`. */
  private async rest(started: number): Promise<void> {
    const ms = ((performance.now() - started) * this.config.SEASON_CLOSE_REST_PERCENT) / 100;
    if (ms >= 1) await sleep(ms);
  }

  /**
   * Pays the places `after`+1..`to` of a frozen season (and moves its `paidThrough` there): in one
   * transaction with bulk statements, or, when its credits are refused as a whole, winner by winner
   * in transactions of `FALLBACK_BATCH` places, calling `keepLease` after each (false: stop, the
   * lease was lost; the result is false then). The worker calls it batch after batch; the tests
   * call it directly, twice at once.
   */
  async payPlaces(season: Season, after: number, to: number, keepLease: () => Promise<boolean> = async () => true): Promise<boolean> {
    const ranges = season.rewards.map((r) => rewardRange(r, season.ranked ?? 0));
    try {
      await this.dataSource.transaction((em) => this.payBatch(em, season, ranges, after, to));
      return true;
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      this.log.warn(`season ${season.id}: places ${after + 1}-${to} paid one by one (${e.message})`);
    }
    for (let from = after; from < to; from += FALLBACK_BATCH) {
      if (this.stopped) return false;
      await this.dataSource.transaction((em) => this.payOneByOne(em, season, ranges, from, Math.min(to, from + FALLBACK_BATCH)));
      if (!(await keepLease())) return false;
    }
    return true;
  }

  /**
   * Pays the places `after`+1..`to` in `em`'s transaction, with bulk statements (see the class).
   * A DomainError of the credits rolls the batch back (the caller pays it one by one).
   */
  private async payBatch(em: EntityManager, season: Season, ranges: { from: number; to: number }[], after: number, to: number) {
    const places = await this.boards.places(em, season.id, after, to, to - after);
    const now = this.clock.now();
    const claims = places.flatMap((p) =>
      dueRewards(ranges, p.position).map((reward) => ({ userId: p.userId, position: p.position, reward })),
    );
    const claimed = await this.repo.claimPayoutsMany(season.tenantId, season.id, claims, now, em);
    await this.repo.markPaidThrough(season.id, to, em);
    if (claimed.length > 0) {
      const status = new Map<string, 'paid' | 'failed'>();
      const key = (userId: string, reward: number) => `${reward}:${userId}`;
      // Items and prizes one at a time (few per batch), in user id order like every multi-user writer.
      const oneByOne = claimed.filter((c) => season.rewards[c.reward].type !== 'resource').sort(byUserThenReward);
      for (const c of oneByOne) status.set(key(c.userId, c.reward), await this.grantOrRecord(em, season, c.reward, c.userId));
      const byUser = new Map<string, number[]>();
      for (const c of claimed) byUser.set(c.userId, [...(byUser.get(c.userId) ?? []), c.reward]);
      const winners = places
        .filter((p) => byUser.has(p.userId))
        .map((p) => ({
          p,
          paid: byUser
            .get(p.userId)!
            .sort((a, b) => a - b)
            .map((i) => ({ i, status: status.get(key(p.userId, i)) ?? 'paid' })),
        }));
      await this.notifications.notifyMany(
        em,
        winners.map(({ p, paid }) => this.notification(season, p, paid)),
      );
      for (const { p, paid } of winners) await this.events.publish(em, 'season.rewarded', rewarded(season, p, paid));
      // The resource credits last: their balance rows stay locked from here to the commit.
      const resources = claimed.filter((c) => season.rewards[c.reward].type === 'resource');
      const types = [...new Set(resources.map((c) => season.rewards[c.reward].refId.toLowerCase()))].sort();
      for (const resourceTypeId of types) {
        await this.ledger.creditMany(em, {
          tenantId: season.tenantId,
          resourceTypeId,
          reason: 'season_reward',
          reference: season.id,
          credits: resources
            .filter((c) => season.rewards[c.reward].refId.toLowerCase() === resourceTypeId)
            .sort(byUserThenReward)
            .map((c) => ({
              userId: c.userId,
              amount: season.rewards[c.reward].amount,
              idempotencyKey: idempotencyKey(season, c.reward, c.userId),
            })),
        });
      }
    }
  }

  /** Pays the places `after`+1..`to` one winner at a time (the path before batches), in `em`'s transaction. */
  private async payOneByOne(em: EntityManager, season: Season, ranges: { from: number; to: number }[], after: number, to: number) {
    const places = await this.boards.places(em, season.id, after, to, to - after);
    // Balance rows in user id order, as every multi-user writer takes them (no deadlocks).
    for (const p of [...places].sort((a, b) => (a.userId < b.userId ? -1 : 1)))
      await this.pay(em, season, p, dueRewards(ranges, p.position));
    await this.repo.markPaidThrough(season.id, to, em);
  }

  /** Pays the player the rewards not paid yet (claimed in `season_payouts` first) and notifies them, in `em`. */
  private async pay(em: EntityManager, season: Season, p: { position: number; userId: string; score: number }, due: number[]) {
    if (due.length === 0) return;
    const claimed = await this.repo.claimPayouts(season.tenantId, season.id, p.userId, p.position, due, this.clock.now(), em);
    if (claimed.length === 0) return;
    const paid: { i: number; status: 'paid' | 'failed' }[] = [];
    for (const i of claimed) paid.push({ i, status: await this.grantOrRecord(em, season, i, p.userId) });
    await this.notifications.notify(em, this.notification(season, p, paid));
    await this.events.publish(em, 'season.rewarded', rewarded(season, p, paid));
  }

  /**
   * Grants reward `index` to the player in a savepoint: a grant refused for a reason of its own
   * (no supply left, the item gone) is recorded as failed, and the rest goes on.
   */
  private async grantOrRecord(em: EntityManager, season: Season, index: number, userId: string): Promise<'paid' | 'failed'> {
    try {
      await em.transaction((tx) => this.grant(tx, season, season.rewards[index], index, userId));
      return 'paid';
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      await this.repo.markPayoutFailed(season.id, userId, index, e.message, em);
      this.log.warn(`season ${season.id}: reward ${index} to ${userId} refused: ${e.message}`);
      return 'failed';
    }
  }

  /** The `season_reward` notification of a player: their place and each reward claimed for them (in reward order). */
  private notification(season: Season, p: Place, rewards: { i: number; status: 'paid' | 'failed' }[]): NotifyInput {
    return {
      tenantId: season.tenantId,
      userId: p.userId,
      communityId: season.communityId,
      type: NotificationType.SeasonReward,
      title: `You finished #${p.position} in ${season.name}`,
      data: {
        seasonId: season.id,
        seasonName: season.name,
        rank: p.position,
        score: p.score,
        rewards: rewarded(season, p, rewards).rewards,
      },
    };
  }

  private async grant(em: EntityManager, season: Season, reward: SeasonReward, index: number, userId: string): Promise<void> {
    const common = {
      tenantId: season.tenantId,
      userId,
      reason: 'season_reward',
      reference: season.id,
      idempotencyKey: idempotencyKey(season, index, userId),
    };
    if (reward.type === 'resource') await this.ledger.credit(em, { ...common, resourceTypeId: reward.refId, amount: reward.amount });
    else if (reward.type === 'item') await this.inventory.grantItem(em, { ...common, itemId: reward.refId, quantity: reward.amount });
    else await this.prizes.award(em, { ...common, prizeId: reward.refId, quantity: reward.amount, source: 'season' });
  }
}

type Place = { position: number; userId: string; score: number };

/** The `season.rewarded` event of a winner: their place and each reward claimed for them (in reward order). */
function rewarded(season: Season, p: Place, rewards: { i: number; status: 'paid' | 'failed' }[]): SeasonRewarded {
  return {
    tenantId: season.tenantId,
    seasonId: season.id,
    userId: p.userId,
    rank: p.position,
    score: p.score,
    rewards: rewards.map(({ i, status }) => {
      const r = season.rewards[i];
      return { type: r.type, refId: r.refId, amount: r.amount, status };
    }),
  };
}

/** The indexes of the rewards whose range holds the place. */
function dueRewards(ranges: { from: number; to: number }[], position: number): number[] {
  return ranges.flatMap((r, i) => (position >= r.from && position <= r.to ? [i] : []));
}

function idempotencyKey(season: Season, index: number, userId: string): string {
  return `season:${season.id}:${index}:${userId}`;
}

function byUserThenReward(a: { userId: string; reward: number }, b: { userId: string; reward: number }): number {
  return a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.reward - b.reward;
}
