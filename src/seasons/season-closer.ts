import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { AppConfig } from '../config/app-config.js';
import type { Season } from './entities/season.entity.js';
import { restAfter, SeasonFreezer } from './season-freezer.js';
import { SeasonOpener } from './season-opener.js';
import { SeasonPayer } from './season-payer.js';
import { nextBatchEnd } from './season-payout-plan.js';
import { rewardRange } from './season-rules.js';
import { SeasonsRepository } from './seasons.repository.js';

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
    private readonly opener: SeasonOpener,
    private readonly freezer: SeasonFreezer,
    private readonly payer: SeasonPayer,
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
    await this.opener.openDueSeasons();
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
      if (after < through) await restAfter(started, this.config.SEASON_CLOSE_REST_PERCENT);
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

  /** Freezes the season's standings (`SeasonFreezer.freeze`); the tests call it directly. */
  freeze(season: Season, keepLease: () => Promise<boolean> = async () => true): Promise<Season | null> {
    return this.freezer.freeze(season, keepLease, () => this.stopped);
  }

  /**
   * Pays the places `after`+1..`to` of a frozen season (`SeasonPayer.payPlaces`). The worker calls
   * it batch after batch; the tests call it directly, twice at once.
   */
  payPlaces(season: Season, after: number, to: number, keepLease: () => Promise<boolean> = async () => true): Promise<boolean> {
    return this.payer.payPlaces(season, after, to, keepLease, () => this.stopped);
  }
}
