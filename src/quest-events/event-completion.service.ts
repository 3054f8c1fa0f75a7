import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { AppConfig } from '../config/app-config.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { NotificationType } from '../notifications/notification-types.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { QuestEventsService } from './quest-events.service.js';
import type { QuestEvent } from './entities/quest-event.entity.js';
import { EventParticipantsReadModel } from './event-participants.read-model.js';
import { eventStatus } from './event-status.js';
import { QuestEventErrors } from './quest-events.errors.js';
import { QuestEventsRepository } from './quest-events.repository.js';
import { RewardsRepository } from './rewards.repository.js';
import './quest-events.events.js';

export interface CompletionResult {
  event: QuestEvent;
  completedNow: boolean;
  allocationsCreated: number;
}

/**
 * Completes quest events: when the end time passes (this worker polls every
 * `QUEST_EVENT_COMPLETION_INTERVAL_MS` using the Clock) or when the management API closes one.
 *
 * Exactly once, whatever runs concurrently (two calls, two instances): the transaction starts with
 * the conditional `UPDATE quest_events SET state = 'completed' WHERE state = 'published' ...`.
 * The second caller waits for the first one's row lock, then matches no row and does nothing. The
 * allocations it would write are also unique per (reward, user), so a replay cannot duplicate them.
 * In the same transaction: every REGISTERED participant's score is set from the scoped resource's
 * ledger entries stamped before the end (or before the close, when earlier) by the participation
 * module, on `quest-event.completing`,
 * ranks are computed (equal scores share a rank), eligible participants (completion rule: score
 * >= minScore and rank <= maxRank) get one allocation per reward whose rank bracket holds them,
 * and everyone is notified.
 */
@Injectable()
export class EventCompletionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(EventCompletionService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  /** The SELECT of the ranked REGISTERED participants of event `$1` (participation owns them and registers it). */
  private rankedSql: ((eventId: string) => string) | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly notifications: NotificationsService,
    private readonly events: QuestEventsService,
    private readonly repo: QuestEventsRepository,
    private readonly rewards: RewardsRepository,
    private readonly participants: EventParticipantsReadModel,
    private readonly domainEvents: DomainEvents,
  ) {}

  /** The participation module says how its participants are ranked (it depends on this module, not the reverse). */
  rankParticipantsWith(sql: (eventId: string) => string): void {
    this.rankedSql = sql;
  }

  onApplicationBootstrap(): void {
    if (!this.config.QUEST_EVENT_WORKER_ENABLED) return;
    this.timer = setInterval(() => {
      if (this.running) return;
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
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass: completes every published event whose end has passed. Returns the ids this pass completed. */
  async runOnce(): Promise<string[]> {
    const due = await this.repo.findDue(this.clock.now());
    const completed: string[] = [];
    for (const e of due) {
      const r = await this.complete(e.tenant_id, e.id, false);
      if (r.completedNow) completed.push(e.id);
    }
    return completed;
  }

  /**
   * Completes the event. `early` (the management API's close) allows it before the end, once the
   * event has started; otherwise only after the end. Already completed: nothing happens
   * (`completedNow: false`). A draft, cancelled or not-started event: 400 `quest_event_state`.
   */
  async complete(tenantId: string, eventId: string, early: boolean): Promise<CompletionResult> {
    return this.dataSource.transaction(async (em) => {
      this.events.eventsChangedIn(em, tenantId); // its status becomes completed
      const now = this.clock.now();
      const won = await this.repo.complete(tenantId, eventId, now, early, em);
      const event = await this.repo.findById(tenantId, eventId, false, em);
      if (!event) throw new Error(`No quest event ${eventId} in tenant ${tenantId}`);
      if (!won) {
        if (event.state === 'completed') return { event, completedNow: false, allocationsCreated: 0 };
        throw new DomainError(
          QuestEventErrors.quest_event_state,
          `The event is ${eventStatus(event, now)}: only a started, published event can be completed`,
        );
      }

      // Final scores from the scoped resource (REGISTERED only: cancelled and dropped ones were revoked),
      // counting the entries stamped before the end (the worker runs after it) or, when the operator
      // closes earlier, those stamped up to the close (its millisecond included).
      const scoresBefore = new Date(Math.min(event.endsAt.getTime(), now.getTime() + 1));
      await this.domainEvents.publish(em, 'quest-event.completing', {
        tenantId,
        eventId,
        scoreResourceTypeId: event.scoreResourceTypeId,
        now,
        scoresBefore,
      });
      if (!this.rankedSql) throw new Error('no participant ranking registered (ParticipationModule)');
      const allocated = await this.rewards.allocate(tenantId, eventId, now, event.minScore, event.maxRank, this.rankedSql('$1'), em);

      await this.domainEvents.publish(em, 'quest_event.status_changed', {
        tenantId,
        eventId,
        communityId: event.communityId,
        from: eventStatus({ ...event, state: 'published' }, now),
        to: 'completed',
      });
      for (const a of allocated)
        await this.domainEvents.publish(em, 'reward.allocated', {
          tenantId,
          eventId,
          allocationId: a.id,
          rewardId: a.reward_id,
          userId: a.user_id,
          tickets: a.tickets,
        });

      // Every participant hears of it, ticket holders of their tickets too: set-sized statements
      // (notifyMany), not two round trips per participant, in an event of any size.
      const tickets = new Map<string, number>();
      for (const a of allocated) tickets.set(a.user_id, (tickets.get(a.user_id) ?? 0) + a.tickets);
      const registered = await this.participants.registeredUserIds(eventId, em);
      const base = { tenantId, communityId: event.communityId };
      await this.notifications.notifyMany(em, [
        ...registered.map((userId) => ({
          ...base,
          userId,
          type: NotificationType.EventCompleted,
          title: `${event.name} is complete`,
          data: { eventId, eventName: event.name },
        })),
        ...[...tickets].map(([userId, n]) => ({
          ...base,
          userId,
          type: NotificationType.TicketsAllocated,
          title: `You received ${n} ticket${n === 1 ? '' : 's'} in ${event.name}`,
          data: { eventId, tickets: n },
        })),
      ]);
      return { event, completedNow: true, allocationsCreated: allocated.length };
    });
  }
}
