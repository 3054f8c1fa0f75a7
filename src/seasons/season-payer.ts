import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { NotificationType } from '../notifications/notification-types.js';
import { NotificationsService, type NotifyInput } from '../notifications/notifications.service.js';
import { LedgerService } from '../resources/ledger.service.js';
import { SeasonBoardsService } from '../resources/season-boards.service.js';
import type { Season } from './entities/season.entity.js';
import { idempotencyKey, SeasonRewardGrants } from './season-reward-grants.js';
import { rewardRange } from './season-rules.js';
import type { SeasonRewarded } from './seasons.events.js';
import { SeasonsRepository } from './seasons.repository.js';

/** Places per transaction when a batch is paid winner by winner (after a batch refused as a whole). */
export const FALLBACK_BATCH = 25;

type Place = { position: number; userId: string; score: number };

/**
 * Pays a frozen season's rank rewards, a batch of places at a time. A batch costs a few statements
 * whatever its size: the payouts in one, the notifications in one, each resource type's credits in
 * a few (`LedgerService.creditMany`, last, so the balance rows are held only to the commit), the
 * outbox in one at the commit. Item and prize rewards are granted one at a time. A batch whose
 * credits are refused as a whole (a user gone, a key used for another operation...) is paid again
 * winner by winner, which records each refusal as before.
 */
@Injectable()
export class SeasonPayer {
  private readonly log = new Logger(SeasonPayer.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: SeasonsRepository,
    private readonly boards: SeasonBoardsService,
    private readonly grants: SeasonRewardGrants,
    private readonly ledger: LedgerService,
    private readonly notifications: NotificationsService,
    private readonly events: DomainEvents,
    private readonly clock: Clock,
  ) {}

  /**
   * Pays the places `after`+1..`to` of a frozen season (and moves its `paidThrough` there): in one
   * transaction with bulk statements, or, when its credits are refused as a whole, winner by winner
   * in transactions of `FALLBACK_BATCH` places, calling `keepLease` after each (false: stop, the
   * lease was lost; the result is false then; `stopped`: the worker is shutting down).
   */
  async payPlaces(season: Season, after: number, to: number, keepLease: () => Promise<boolean>, stopped: () => boolean): Promise<boolean> {
    const ranges = season.rewards.map((r) => rewardRange(r, season.ranked ?? 0));
    try {
      await this.dataSource.transaction((em) => this.payBatch(em, season, ranges, after, to));
      return true;
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      this.log.warn(`season ${season.id}: places ${after + 1}-${to} paid one by one (${e.message})`);
    }
    for (let from = after; from < to; from += FALLBACK_BATCH) {
      if (stopped()) return false;
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
      for (const c of oneByOne) status.set(key(c.userId, c.reward), await this.grants.grantOrRecord(em, season, c.reward, c.userId));
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
        winners.map(({ p, paid }) => notification(season, p, paid)),
      );
      for (const { p, paid } of winners) await this.events.publish(em, 'season.rewarded', rewarded(season, p, paid));
      await this.creditResources(em, season, claimed);
    }
  }

  /** The resource credits of a batch, last: their balance rows stay locked from here to the commit. */
  private async creditResources(em: EntityManager, season: Season, claimed: { userId: string; reward: number }[]): Promise<void> {
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

  /** Pays the places `after`+1..`to` one winner at a time (the path before batches), in `em`'s transaction. */
  private async payOneByOne(em: EntityManager, season: Season, ranges: { from: number; to: number }[], after: number, to: number) {
    const places = await this.boards.places(em, season.id, after, to, to - after);
    // Balance rows in user id order, as every multi-user writer takes them (no deadlocks).
    for (const p of [...places].sort((a, b) => (a.userId < b.userId ? -1 : 1)))
      await this.pay(em, season, p, dueRewards(ranges, p.position));
    await this.repo.markPaidThrough(season.id, to, em);
  }

  /** Pays the player the rewards not paid yet (claimed in `season_payouts` first) and notifies them, in `em`. */
  private async pay(em: EntityManager, season: Season, p: Place, due: number[]) {
    if (due.length === 0) return;
    const claimed = await this.repo.claimPayouts(season.tenantId, season.id, p.userId, p.position, due, this.clock.now(), em);
    if (claimed.length === 0) return;
    const paid: { i: number; status: 'paid' | 'failed' }[] = [];
    for (const i of claimed) paid.push({ i, status: await this.grants.grantOrRecord(em, season, i, p.userId) });
    await this.notifications.notify(em, notification(season, p, paid));
    await this.events.publish(em, 'season.rewarded', rewarded(season, p, paid));
  }
}

/** The `season_reward` notification of a player: their place and each reward claimed for them (in reward order). */
function notification(season: Season, p: Place, rewards: { i: number; status: 'paid' | 'failed' }[]): NotifyInput {
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

function byUserThenReward(a: { userId: string; reward: number }, b: { userId: string; reward: number }): number {
  return a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.reward - b.reward;
}
