import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { AppConfig } from '../config/app-config.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { NotificationType } from '../notifications/notification-types.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { QuestEventsCaches } from './quest-events.caches.js';
import { progressFrom, type CompletionProgress, type QuestEvent } from './entities/quest-event.entity.js';
import { EventParticipantsReadModel } from './event-participants.read-model.js';
import { eventStatus } from './event-status.js';
import { QuestEventErrors } from './quest-events.errors.js';
import { QuestEventsRepository } from './quest-events.repository.js';
import { RewardsRepository, type RankedParticipant } from './rewards.repository.js';
import './quest-events.events.js';

export interface CompletionResult {
  event: QuestEvent;
  /** This call claimed the completion. */
  completedNow: boolean;
  /** Allocations this call made. */
  allocationsCreated: number;
}

/** How long a close (`complete` from the management API) goes on with the completion's steps before it answers; the worker does the rest. */
export const CLOSE_STEPS_MS = 5_000;
/** How long a close waits before trying again a batch that another transaction holds. */
const BUSY_RETRY_MS = 20;

/** What one batch did: nothing is left (completed, or cancelled and told), another transaction holds it, or there is more to do. */
type Stepped = { state: 'done' | 'busy' | 'more'; allocated: number };

/**
 * Completes quest events (and tells the players of cancelled ones, in the same batches: the
 * `notices` step alone): when the end time passes (this worker polls every
 * `QUEST_EVENT_COMPLETION_INTERVAL_MS` using the Clock) or when the management API closes one.
 *
 * Exactly once, whatever runs concurrently (two calls, two instances): the completion is claimed by
 * the conditional `UPDATE quest_events SET state = 'completing' WHERE state = 'published' ...`; a
 * second caller waits for the first one's row lock, then matches no row. From the claim on, the
 * participants cannot change (every change of participation needs a published event).
 *
 * Then it works through the REGISTERED participants in steps, each in batches of
 * `QUEST_EVENT_COMPLETION_BATCH` in transactions of their own, so an event of a million
 * participants holds no lock, snapshot or statement for long (one transaction for all of them ran
 * past the statement timeout and never completed: docs/decisions.md):
 *
 * 1. `scores`: their final scores, from the scoped resource's ledger entries stamped before the
 *    end (or just after an early close), by the participation module (`quest-event.completing`);
 * 2. `ranked`: the final standings in order (equal scores share a rank), each participant's place
 *    and rank stored by the participation module (`quest-event.ranked`: the standings are then
 *    read by place), and the tickets of those the completion rule admits: one allocation per reward
 *    whose rank bracket holds them, its `reward.allocated` event and a `tickets_allocated`
 *    notification (no allocation is tried past the last rank any reward pays);
 * 3. `unranked`: the same for participants with a score of 0, when the rule admits them (minScore 0);
 * 4. `notices`: every participant is told the event is complete; then `state = 'completed'`.
 *
 * Each batch locks the event row (`FOR NO KEY UPDATE SKIP LOCKED`), reads where the completion
 * stands (`quest_events.completion`), does its part and stores the next place in the same
 * transaction: an interrupted completion (a crash, a stopped instance) goes on from the last
 * committed batch, at the worker's next pass in any instance, and no batch is done twice.
 * Allocations are also unique per (reward, user). While it runs the event shows as `ended`, and
 * its leaderboard is the live one, as between the end and the worker's pass.
 */
@Injectable()
export class EventCompletionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(EventCompletionService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly notifications: NotificationsService,
    private readonly caches: QuestEventsCaches,
    private readonly repo: QuestEventsRepository,
    private readonly rewards: RewardsRepository,
    private readonly participants: EventParticipantsReadModel,
    private readonly domainEvents: DomainEvents,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.QUEST_EVENT_WORKER_ENABLED) return;
    this.timer = setInterval(() => {
      if (this.running || this.stopped) return;
      this.running = this.runOnce()
        .catch((e: unknown) => {
          this.log.warn(`event completion pass failed: ${String(e)}`);
          return [];
        })
        .finally(() => (this.running = null));
    }, this.config.QUEST_EVENT_COMPLETION_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /**
   * One pass: claims every published event whose end has passed and finishes every completion
   * that is running (its own claims, and those another call or instance left) and every
   * cancellation's notices, resting between
   * batches (`QUEST_EVENT_COMPLETION_REST_PERCENT`). Returns the ids this pass claimed.
   */
  async runOnce(): Promise<string[]> {
    const claimed: string[] = [];
    // One event that fails (its claim, one of its batches) holds up no other: it is tried again at the next pass.
    for (const e of await this.repo.findDue(this.clock.now())) {
      if (this.stopped) return claimed;
      try {
        if (await this.claim(e.tenant_id, e.id, false)) claimed.push(e.id);
      } catch (err) {
        this.log.warn(`quest event ${e.id}: completion not claimed: ${String(err)}`);
      }
    }
    for (const e of await this.repo.findPending()) {
      if (this.stopped) return claimed;
      try {
        await this.finish(e.id, { budgetMs: Infinity, restPercent: this.config.QUEST_EVENT_COMPLETION_REST_PERCENT, leaveWhenBusy: true });
      } catch (err) {
        this.log.warn(`quest event ${e.id}: a batch of its completion failed, the next pass goes on from there: ${String(err)}`);
      }
    }
    return claimed;
  }

  /**
   * Completes the event. `early` (the management API's close) allows it before the end, once the
   * event has started; otherwise only after the end. Claimed by another call (completing or
   * completed): nothing happens (`completedNow: false`). A draft, cancelled or not-started event:
   * 400 `quest_event_state`. This call goes on with the steps for up to `stepsMs` (CLOSE_STEPS_MS);
   * what is left then (or after a batch that failed), the worker finishes (the event answered is
   * then still `ended`).
   */
  async complete(tenantId: string, eventId: string, early: boolean, stepsMs = CLOSE_STEPS_MS): Promise<CompletionResult> {
    const won = await this.claim(tenantId, eventId, early);
    let allocationsCreated = 0;
    if (won) {
      // Claimed: the completion happens whatever comes next; a failed batch is the worker's to do again.
      try {
        allocationsCreated = await this.finish(eventId, {
          budgetMs: stepsMs,
          restPercent: 0,
          leaveWhenBusy: false,
          progress: (n) => (allocationsCreated = n),
        });
      } catch (err) {
        this.log.warn(`quest event ${eventId}: a batch of its completion failed, the worker goes on from there: ${String(err)}`);
      }
    }
    const event = await this.repo.findById(tenantId, eventId);
    if (!event) throw new Error(`No quest event ${eventId} in tenant ${tenantId}`);
    return { event, completedNow: won, allocationsCreated };
  }

  /**
   * Tells the players of an event the management API has just cancelled (`QuestEventAdmin.cancel`
   * leaves that to batches), for up to `stepsMs`; the worker tells the rest.
   */
  async tellCancelled(eventId: string, stepsMs = CLOSE_STEPS_MS): Promise<void> {
    try {
      await this.finish(eventId, { budgetMs: stepsMs, restPercent: 0, leaveWhenBusy: false });
    } catch (err) {
      this.log.warn(`quest event ${eventId}: a batch of its cancellation's notices failed, the worker goes on from there: ${String(err)}`);
    }
  }

  /** Claims the completion of the event in a transaction of its own: whether this call won (400 when it cannot be completed). */
  private claim(tenantId: string, eventId: string, early: boolean): Promise<boolean> {
    // The participation module sets the final scores (it depends on this module, not the reverse):
    // without it a completion would rank scores that were never made final.
    if (!this.domainEvents.hasInTransactionHandlers(['quest-event.completing']))
      throw new Error('no participant scoring registered (ParticipationModule): the event cannot be completed');
    return this.dataSource.transaction(async (em) => {
      const now = this.clock.now();
      // Locked: its times cannot move between this read and the claim.
      const event = await this.repo.findById(tenantId, eventId, true, em);
      if (!event) throw new Error(`No quest event ${eventId} in tenant ${tenantId}`);
      if (event.state === 'completing' || event.state === 'completed') return false;
      // Final scores count the entries stamped before the end or, when the operator closes earlier,
      // those stamped up to the close (its millisecond included).
      const before = new Date(Math.min(event.endsAt.getTime(), now.getTime() + 1));
      if (!(await this.repo.claimCompletion(tenantId, eventId, now, early, progressFrom('scores', before), em))) {
        throw new DomainError(
          QuestEventErrors.quest_event_state,
          `The event is ${eventStatus(event, now)}: only a started, published event can be completed`,
        );
      }
      this.caches.eventsChangedIn(em, tenantId); // an early close ends it now
      return true;
    });
  }

  /**
   * Runs the completion's batches until it is completed, `budgetMs` has passed or the service
   * stops, resting `restPercent` of each batch's time after it. A batch another transaction holds
   * (another instance drives it) ends a worker's run (`leaveWhenBusy`: its next pass looks again)
   * and is waited out by a close. The allocations it made (also told to `progress` after each
   * batch, so a caller knows them when a later batch fails).
   */
  private async finish(
    eventId: string,
    opts: { budgetMs: number; restPercent: number; leaveWhenBusy: boolean; progress?: (allocated: number) => void },
  ): Promise<number> {
    const deadline = performance.now() + opts.budgetMs;
    let allocated = 0;
    while (!this.stopped && performance.now() < deadline) {
      const started = performance.now();
      const r = await this.step(eventId);
      allocated += r.allocated;
      opts.progress?.(allocated);
      if (r.state === 'done' || (r.state === 'busy' && opts.leaveWhenBusy)) break;
      if (r.state === 'busy') await sleep(BUSY_RETRY_MS);
      else if (opts.restPercent > 0) {
        const rest = ((performance.now() - started) * opts.restPercent) / 100;
        if (rest >= 1) await sleep(rest);
      }
    }
    return allocated;
  }

  /** One batch of the event's completion, in a transaction of its own. Tests call it directly. */
  step(eventId: string): Promise<Stepped> {
    return this.dataSource.transaction(async (em) => {
      const event = await this.repo.lockPending(eventId, em);
      if (!event) {
        // Nothing left to do (completed, cancelled and told), or another transaction is doing a batch of it.
        return { state: (await this.repo.stateOf(eventId, em))?.pending ? 'busy' : 'done', allocated: 0 };
      }
      const p = event.completion!;
      const batch = this.config.QUEST_EVENT_COMPLETION_BATCH;
      let allocated = 0;
      switch (p.step) {
        case 'scores':
          await this.scoresBatch(event, p, batch, em);
          break;
        case 'ranked':
          allocated = await this.rankedBatch(event, p, batch, em);
          break;
        case 'unranked':
          allocated = await this.unrankedBatch(event, p, batch, em);
          break;
        case 'notices':
          if (await this.noticesBatch(event, p, batch, em)) return { state: 'done', allocated };
          break;
      }
      await this.repo.saveCompletion(event.id, p, em);
      return { state: 'more', allocated };
    });
  }

  /** `scores`: the final scores of a batch of REGISTERED participants, set by the participation module. */
  private async scoresBatch(event: QuestEvent, p: CompletionProgress, batch: number, em: EntityManager): Promise<void> {
    const userIds = await this.participants.registeredAfter(event.id, p.afterUser, batch, false, em);
    if (userIds.length > 0) {
      await this.domainEvents.publish(em, 'quest-event.completing', {
        tenantId: event.tenantId,
        eventId: event.id,
        scoreResourceTypeId: event.scoreResourceTypeId,
        now: this.clock.now(),
        scoresBefore: new Date(p.before),
        userIds,
      });
    }
    Object.assign(p, userIds.length < batch ? { step: 'ranked', afterUser: null } : { afterUser: userIds.at(-1) });
  }

  /** `ranked`: a batch of the final standings, their places stored and their tickets allocated. How many allocations were made. */
  private async rankedBatch(event: QuestEvent, p: CompletionProgress, batch: number, em: EntityManager): Promise<number> {
    let allocated = 0;
    const after = p.afterUser === null ? null : { userId: p.afterUser, score: p.afterScore!, rank: p.afterRank!, position: p.position };
    const ranked = await this.participants.rankedAfter(event.id, after, batch, em);
    if (ranked.length > 0) {
      await this.domainEvents.publish(em, 'quest-event.ranked', {
        tenantId: event.tenantId,
        eventId: event.id,
        userIds: ranked.map((r) => r.user_id),
        positions: ranked.map((_, i) => p.position + i + 1),
        ranks: ranked.map((r) => r.rank),
      });
      // Tickets while some reward may still pay: none past the last rank any reward or maxRank pays, nor below minScore.
      const reach = await this.rewards.rankReach(event.id, em);
      const lastPaid = Math.min(event.maxRank ?? Infinity, reach.lastRank ?? Infinity);
      if (reach.rewards > 0 && ranked[0].rank <= lastPaid && Number(ranked[0].score) >= event.minScore)
        allocated = await this.allocate(
          event,
          ranked.map((r) => ({ userId: r.user_id, score: r.score, rank: r.rank })),
          em,
        );
      const last = ranked.at(-1)!;
      Object.assign(p, { afterUser: last.user_id, afterScore: last.score, afterRank: last.rank, position: p.position + ranked.length });
    }
    if (ranked.length < batch) {
      const unranked = event.minScore <= 0 && (await this.rewards.rankReach(event.id, em)).rewards > 0;
      Object.assign(p, { step: unranked ? 'unranked' : 'notices', afterUser: null });
    }
    return allocated;
  }

  /** `unranked`: the tickets of a batch of participants with a score of 0 (the rule admits them). How many allocations were made. */
  private async unrankedBatch(event: QuestEvent, p: CompletionProgress, batch: number, em: EntityManager): Promise<number> {
    const userIds = await this.participants.registeredAfter(event.id, p.afterUser, batch, true, em);
    const allocated = await this.allocate(
      event,
      userIds.map((userId) => ({ userId, score: '0', rank: null })),
      em,
    );
    Object.assign(p, userIds.length < batch ? { step: 'notices', afterUser: null } : { afterUser: userIds.at(-1) });
    return allocated;
  }

  /**
   * `notices`, the last step of a completion and the only one of a cancellation: a batch of
   * participants told. Whether it was the last batch (the completion or cancellation then stored as done).
   */
  private async noticesBatch(event: QuestEvent, p: CompletionProgress, batch: number, em: EntityManager): Promise<boolean> {
    const cancelled = event.state === 'cancelled';
    const userIds = await this.participants.registeredAfter(event.id, p.afterUser, batch, false, em);
    await this.notifications.notifyMany(
      em,
      userIds.map((userId) => ({
        tenantId: event.tenantId,
        communityId: event.communityId,
        userId,
        type: cancelled ? NotificationType.EventCancelled : NotificationType.EventCompleted,
        title: cancelled ? `${event.name} was cancelled` : `${event.name} is complete`,
        data: { eventId: event.id, eventName: event.name },
      })),
    );
    if (userIds.length < batch) {
      if (cancelled) await this.repo.saveCompletion(event.id, null, em);
      else await this.completed(event, p, em);
      return true;
    }
    p.afterUser = userIds.at(-1)!;
    return false;
  }

  /**
   * The tickets of these participants (a batch of the standings, or unranked ones): their
   * allocations, each one's `reward.allocated`, and one `tickets_allocated` notification per
   * participant who got any. How many allocations were made.
   */
  private async allocate(event: QuestEvent, batch: RankedParticipant[], em: EntityManager): Promise<number> {
    const allocated = await this.rewards.allocate(event.id, event.tenantId, this.clock.now(), event.minScore, event.maxRank, batch, em);
    const tickets = new Map<string, number>();
    for (const a of allocated) {
      tickets.set(a.user_id, (tickets.get(a.user_id) ?? 0) + a.tickets);
      await this.domainEvents.publish(em, 'reward.allocated', {
        tenantId: event.tenantId,
        eventId: event.id,
        allocationId: a.id,
        rewardId: a.reward_id,
        userId: a.user_id,
        tickets: a.tickets,
      });
    }
    await this.notifications.notifyMany(
      em,
      [...tickets].map(([userId, n]) => ({
        tenantId: event.tenantId,
        communityId: event.communityId,
        userId,
        type: NotificationType.TicketsAllocated,
        title: `You received ${n} ticket${n === 1 ? '' : 's'} in ${event.name}`,
        data: { eventId: event.id, tickets: n },
      })),
    );
    return allocated.length;
  }

  /** The last step: the event is completed (its standings final, its tickets allocated, everyone told). */
  private async completed(event: QuestEvent, p: CompletionProgress, em: EntityManager): Promise<void> {
    const now = this.clock.now();
    await this.repo.finishCompletion(event.id, now, em);
    this.caches.eventsChangedIn(em, event.tenantId);
    await this.domainEvents.publish(em, 'quest_event.status_changed', {
      tenantId: event.tenantId,
      eventId: event.id,
      communityId: event.communityId,
      // What it showed before the claim: ended, or active when the operator closed it before its end.
      from: new Date(p.before).getTime() < event.endsAt.getTime() ? 'active' : 'ended',
      to: 'completed',
    });
  }
}
