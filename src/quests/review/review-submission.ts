import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock.js';
import { DomainEvents } from '../../common/events/domain-events.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { NotificationType } from '../../notifications/notification-types.js';
import { NotificationsService } from '../../notifications/notifications.service.js';
import { CompleteQuest } from '../claims/complete-quest.js';
import { QuestContextLoader } from '../claims/quest-context.js';
import { QuestErrors } from '../quests.errors.js';
import { QuestsRepository } from '../quests.repository.js';
import { QuestTasksRepository } from '../tasks/quest-tasks.repository.js';
import { idOf } from '../../common/validation/uuid.js';

/**
 * An operator's decision on a submission: approved (the task done) or rejected with a reason the
 * player reads (they may submit again). The player is told at once (a notification, live), the
 * decision is an event (`quest.submission_reviewed`), all in one transaction; a submission decided
 * already is a 404 for the second decision. An approval that makes every task of its period done
 * completes the quest in that period.
 */
@Injectable()
export class ReviewSubmission {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly progress: QuestTasksRepository,
    private readonly quests: QuestsRepository,
    private readonly contexts: QuestContextLoader,
    private readonly completion: CompleteQuest,
    private readonly notifications: NotificationsService,
    private readonly events: DomainEvents,
    private readonly clock: Clock,
  ) {}

  async review(
    tenantId: string,
    id: string,
    approve: boolean,
    reason: string | null,
    actor: string,
  ): Promise<{ id: string; state: string; questCompleted: boolean }> {
    const submissionId = idOf(id);
    if (!submissionId) throw new DomainError(QuestErrors.submission_not_found, `No pending submission ${id.slice(0, 64)}`);
    const now = this.clock.now();
    const decided = await this.dataSource.transaction(async (em) => {
      const row = await this.progress.review(tenantId, submissionId, approve, reason, actor, now, em);
      if (!row) return null;
      const quest = (await this.quests.findById(tenantId, row.questId, em))!;
      await this.events.publish(em, 'quest.submission_reviewed', {
        tenantId,
        questId: row.questId,
        taskId: row.taskId,
        submissionId: row.id,
        userId: row.userId,
        communityId: quest.communityId,
        periodKey: row.periodKey,
        approved: approve,
        reason,
      });
      if (approve)
        await this.events.publish(em, 'quest.task_verified', {
          tenantId,
          questId: row.questId,
          taskId: row.taskId,
          kind: 'submission',
          userId: row.userId,
          communityId: quest.communityId,
          periodKey: row.periodKey,
        });
      await this.notifications.notify(em, {
        tenantId,
        userId: row.userId,
        communityId: quest.communityId,
        type: NotificationType.SubmissionReviewed,
        title: approve ? `Submission approved: ${quest.name}` : `Submission rejected: ${quest.name}`,
        data: { questId: quest.id, questName: quest.name, taskId: row.taskId, approved: approve, reason },
      });
      return { row, quest };
    });
    if (!decided) throw new DomainError(QuestErrors.submission_not_found, `No pending submission ${id} in this tenant`);
    const { row, quest } = decided;
    let questCompleted = false;
    if (approve && quest.status === 'active') {
      // The period the submission was made in, whenever it is reviewed.
      const ctx = await this.contexts.of(tenantId, quest, row.submittedAt);
      if (ctx.period.key === row.periodKey) {
        const rows = await this.progress.findProgress(tenantId, quest.id, row.userId, row.periodKey);
        if (ctx.tasks.length > 0 && ctx.tasks.every((t) => rows.some((r) => r.taskId === t.id && r.state === 'done'))) {
          // The decision stands whatever the completion meets (an event no longer active): the player's next claim completes it then.
          questCompleted = await this.completion
            .complete(tenantId, quest, row.userId, ctx.period, ctx.previousKey)
            .then((r) => r.created)
            .catch((err: unknown) => {
              if (err instanceof DomainError) return false;
              throw err;
            });
        }
      }
    }
    return { id: row.id, state: approve ? 'done' : 'rejected', questCompleted };
  }
}
