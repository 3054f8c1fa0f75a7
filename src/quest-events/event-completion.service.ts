import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { AppConfig } from '../config/app-config.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { NotificationType } from '../notifications/notification-types.js';
import { QuestEventsService } from './quest-events.service.js';
import { QuestEvent } from './entities/quest-event.entity.js';
import { eventStatus } from './event-status.js';
import { QuestEventErrors } from './quest-events.errors.js';

export interface CompletionResult {
  event: QuestEvent;
  completedNow: boolean;
  allocationsCreated: number;
}

/** TypeORM answers an UPDATE ... RETURNING with [rows, affectedCount]. */
function updatedRows<T>(res: unknown): T[] {
  return (Array.isArray(res) && Array.isArray(res[0]) ? res[0] : res) as T[];
}

/**
 * Completes quest events: when the end time passes (this worker polls every
 * `QUEST_EVENT_COMPLETION_INTERVAL_MS` using the Clock) or when the management API closes one.
 *
 * Exactly once, whatever runs concurrently (two calls, two instances): the transaction starts with
 * the conditional `UPDATE quest_events SET state = 'completed' WHERE state = 'published' ...`.
 * The second caller waits for the first one's row lock, then matches no row and does nothing. The
 * allocations it would write are also unique per (reward, user), so a replay cannot duplicate them.
 * In the same transaction: every REGISTERED participant's score is synced from the scoped resource,
 * ranks are computed (equal scores share a rank), eligible participants (completion rule: score
 * >= minScore and rank <= maxRank) get one allocation per reward whose rank bracket holds them,
 * and everyone is notified.
 */
@Injectable()
export class EventCompletionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(EventCompletionService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly notifications: NotificationsService,
    private readonly events: QuestEventsService,
  ) {}

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
    const due: { id: string; tenant_id: string }[] = await this.dataSource.query(
      `SELECT id, tenant_id FROM quest_events WHERE state = 'published' AND ends_at <= $1 ORDER BY ends_at LIMIT 100`,
      [this.clock.now()],
    );
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
      const won = updatedRows<{ id: string }>(
        await em.query(
          `UPDATE quest_events SET state = 'completed', completed_at = $3
           WHERE id = $1 AND tenant_id = $2 AND state = 'published' AND (ends_at <= $3 OR ($4 AND starts_at <= $3))
           RETURNING id`,
          [eventId, tenantId, now, early],
        ),
      );
      const event = await em.getRepository(QuestEvent).findOneByOrFail({ id: eventId, tenantId });
      if (won.length === 0) {
        if (event.state === 'completed') return { event, completedNow: false, allocationsCreated: 0 };
        throw new DomainError(
          QuestEventErrors.quest_event_state,
          `The event is ${eventStatus(event, now)}: only a started, published event can be completed`,
        );
      }

      // Final scores from the scoped resource (REGISTERED only: cancelled and dropped ones were revoked).
      await em.query(
        `UPDATE quest_event_participants p SET score_synced_at = $3, score = COALESCE(
           (SELECT b.earned FROM resource_balances b WHERE b.resource_type_id = $2 AND b.user_id = p.user_id), 0)
         WHERE p.event_id = $1 AND p.status = 1`,
        [eventId, event.scoreResourceTypeId, now],
      );
      const allocated: { user_id: string; tickets: number }[] = await em.query(
        `WITH ranked AS (
           SELECT p.user_id, p.score, CASE WHEN p.score > 0 THEN RANK() OVER (ORDER BY p.score DESC) END AS rank
           FROM quest_event_participants p WHERE p.event_id = $1 AND p.status = 1)
         INSERT INTO quest_event_reward_allocations (tenant_id, event_id, reward_id, user_id, tickets, tickets_spent, rank, score, created_at)
         SELECT $2, $1, r.id, x.user_id, r.tickets, 0, x.rank, x.score, $3
         FROM ranked x CROSS JOIN quest_event_rewards r
         WHERE r.event_id = $1 AND x.score >= $4 AND ($5::int IS NULL OR x.rank <= $5)
           AND (r.rank_from IS NULL OR x.rank >= r.rank_from) AND (r.rank_to IS NULL OR x.rank <= r.rank_to)
         ON CONFLICT (reward_id, user_id) DO NOTHING
         RETURNING user_id, tickets`,
        [eventId, tenantId, now, event.minScore, event.maxRank],
      );

      const tickets = new Map<string, number>();
      for (const a of allocated) tickets.set(a.user_id, (tickets.get(a.user_id) ?? 0) + a.tickets);
      const registered: { user_id: string }[] = await em.query(
        'SELECT user_id FROM quest_event_participants WHERE event_id = $1 AND status = 1 ORDER BY user_id',
        [eventId],
      );
      for (const { user_id: userId } of registered) {
        const base = { tenantId, userId, communityId: event.communityId };
        await this.notifications.notify(em, {
          ...base,
          type: NotificationType.EventCompleted,
          title: `${event.name} is complete`,
          data: { eventId, eventName: event.name },
        });
        const n = tickets.get(userId);
        if (n)
          await this.notifications.notify(em, {
            ...base,
            type: NotificationType.TicketsAllocated,
            title: `You received ${n} ticket${n === 1 ? '' : 's'} in ${event.name}`,
            data: { eventId, tickets: n },
          });
      }
      return { event, completedNow: true, allocationsCreated: allocated.length };
    });
  }
}
