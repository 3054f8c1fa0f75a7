import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { DomainEvents } from '../../common/events/domain-events.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { Clock } from '../../common/clock/clock.js';
import { InventoryService } from '../../inventory/inventory.service.js';
import { NotificationType } from '../../notifications/notification-types.js';
import { NotificationsService } from '../../notifications/notifications.service.js';
import { ParticipantsRepository } from '../../participation/participants.repository.js';
import { eventStatus } from '../../quest-events/event-status.js';
import { QuestEventsService } from '../../quest-events/quest-events.service.js';
import { LedgerService } from '../../resources/ledger.service.js';
import { UserErrors } from '../../users/users.errors.js';
import type { Quest, QuestReward } from '../entities/quest.entity.js';
import { QuestReferencesReadModel } from '../quest-references.read-model.js';
import { QuestErrors } from '../quests.errors.js';
import { QuestsRepository } from '../quests.repository.js';
import type { QuestPeriod } from '../schedule/quest-period.js';
import type { QuestCompleted } from '../quests.events.js';
import { QuestStreaksRepository } from './quest-streaks.repository.js';

/** What a completion did: `created` false when the period was completed before (nothing credited again). */
export interface CompletionResult {
  completionId: string | null;
  completedAt: Date;
  created: boolean;
  periodKey: string;
  rewards: QuestReward[];
  streak: { current: number; best: number } | null;
  /** Rewards of the streak bonus this completion reached (empty when none). */
  streakRewards: QuestReward[];
}

/** What a completion tells: the `quest.completed` event (outbox, webhooks, NATS) and the player (a notification, live on the stream). */
@Injectable()
export class CompletionNotices {
  constructor(
    private readonly events: DomainEvents,
    private readonly notifications: NotificationsService,
  ) {}

  completed(em: EntityManager, event: QuestCompleted): Promise<void> {
    return this.events.publish(em, 'quest.completed', event);
  }

  async tellPlayer(
    em: EntityManager,
    tenantId: string,
    userId: string,
    quest: Quest,
    periodKey: string,
    streak: number | null,
  ): Promise<void> {
    await this.notifications.notify(em, {
      tenantId,
      userId,
      communityId: quest.communityId,
      type: NotificationType.QuestCompleted,
      title: `Quest completed: ${quest.name}`,
      data: { questId: quest.id, questName: quest.name, periodKey, streak },
    });
  }
}

/** Credits a quest's rewards in the caller's transaction, each with an idempotency key under `keyPrefix`. */
@Injectable()
export class QuestRewardsPayer {
  constructor(
    private readonly ledger: LedgerService,
    private readonly inventory: InventoryService,
  ) {}

  async pay(em: EntityManager, tenantId: string, userId: string, quest: Quest, rewards: QuestReward[], keyPrefix: string): Promise<void> {
    for (const [i, r] of rewards.entries()) {
      const key = `${keyPrefix}:${i}`;
      if (r.type === 'resource') {
        await this.ledger.credit(em, {
          tenantId,
          userId,
          resourceTypeId: r.resourceTypeId,
          amount: r.amount,
          reason: 'quest_completion',
          reference: quest.id,
          idempotencyKey: key,
        });
      } else {
        await this.inventory.grantItem(em, {
          tenantId,
          userId,
          itemId: r.itemId,
          quantity: r.quantity,
          reason: 'quest_reward',
          reference: quest.id,
          idempotencyKey: key,
        });
      }
    }
  }
}

/**
 * An event quest's conditions, in the completion's transaction: the event active and the player
 * REGISTERED. The participant's row is locked before the event's state is read: the completion of
 * an event writes each final score under that row's lock, after its claim has committed, so a
 * quest completion that gets the row after that reads the event as no longer active, and no live
 * balance (`sync`) can replace a final score.
 */
@Injectable()
export class EventQuestGate {
  constructor(
    private readonly participants: ParticipantsRepository,
    private readonly events: QuestEventsService,
    private readonly clock: Clock,
  ) {}

  async check(em: EntityManager, tenantId: string, questEventId: string, userId: string): Promise<{ sync: (now: Date) => Promise<void> }> {
    const p = await this.participants.lockByEventAndUser(questEventId, userId, em);
    const event = await this.events.resolve(tenantId, questEventId, { includeDrafts: true, em });
    const status = eventStatus(event, this.clock.now());
    if (status !== 'active') throw new DomainError(QuestErrors.quest_not_completable, `The quest's event is ${status}, not active`);
    if (!p || p.status !== 1)
      throw new DomainError(QuestErrors.quest_not_completable, 'Only REGISTERED participants of the event can complete its quests');
    const scoreTypeId = event.scoreResourceTypeId;
    return {
      sync: async (now) => {
        if (scoreTypeId) await this.participants.syncScore(p.id, scoreTypeId, now, em);
      },
    };
  }
}

/**
 * Records that a player completed a quest in a period and credits its rewards, exactly once per
 * (player, quest, period): the completion row is unique per period and every credit's idempotency
 * key derives from it, so concurrent claims, a retried request or a crash before the commit credit
 * once. Everything is one transaction: the completion, the rewards (ledger and inventory), the
 * streak and its bonus, the `quest.completed` event (outbox, webhooks, NATS), the player's
 * notification (live stream). An event quest needs the event active and the player REGISTERED,
 * and brings the player's score up to date. Verification happens before, never inside it.
 */
@Injectable()
export class CompleteQuest {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: QuestsRepository,
    private readonly references: QuestReferencesReadModel,
    private readonly streaks: QuestStreaksRepository,
    private readonly rewards: QuestRewardsPayer,
    private readonly eventGate: EventQuestGate,
    private readonly notices: CompletionNotices,
    private readonly clock: Clock,
  ) {}

  /** The player's completion of the quest in the period, or null. */
  completedIn(tenantId: string, questId: string, userId: string, periodKey: string): Promise<{ id: string; completedAt: Date } | null> {
    return this.repo.findCompletion(tenantId, questId, userId, periodKey);
  }

  async complete(
    tenantId: string,
    quest: Quest,
    userId: string,
    period: QuestPeriod,
    previousKey: string | null,
  ): Promise<CompletionResult> {
    return this.dataSource.transaction(async (em) => {
      if (!(await this.references.userExists(tenantId, userId, em)))
        throw new DomainError(UserErrors.user_not_found, `No user ${userId} in this tenant`);
      const participant = quest.questEventId ? await this.eventGate.check(em, tenantId, quest.questEventId, userId) : null;
      const now = this.clock.now();
      const inserted = await this.repo.insertCompletion(tenantId, quest.id, userId, period.key, now, em);
      if (!inserted) {
        const completedAt = await this.repo.completedAt(tenantId, quest.id, userId, period.key, em);
        return {
          completionId: null,
          completedAt,
          created: false,
          periodKey: period.key,
          rewards: quest.rewards,
          streak: null,
          streakRewards: [],
        };
      }
      const completionId = inserted.id;
      await this.notices.completed(em, {
        tenantId,
        questId: quest.id,
        completionId,
        userId,
        communityId: quest.communityId,
        questEventId: quest.questEventId ?? null,
        periodKey: period.key,
      });
      await this.rewards.pay(em, tenantId, userId, quest, quest.rewards, `quest:${completionId}`);
      let streak: CompletionResult['streak'] = null;
      let streakRewards: QuestReward[] = [];
      if (quest.recurrence !== 'once') {
        streak = await this.streaks.count(tenantId, quest.id, userId, period.key, previousKey, em);
        const bonus = quest.streakBonus;
        if (bonus && bonus.every > 0 && streak.current % bonus.every === 0) {
          streakRewards = bonus.rewards;
          await this.rewards.pay(em, tenantId, userId, quest, bonus.rewards, `quest:${completionId}:streak`);
        }
      }
      if (participant) await participant.sync(now);
      await this.notices.tellPlayer(em, tenantId, userId, quest, period.key, streak?.current ?? null);
      return {
        completionId,
        completedAt: inserted.completed_at,
        created: true,
        periodKey: period.key,
        rewards: quest.rewards,
        streak,
        streakRewards,
      };
    });
  }
}
