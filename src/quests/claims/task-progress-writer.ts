import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { DomainEvents } from '../../common/events/domain-events.js';
import { QuestTasksRepository } from '../tasks/quest-tasks.repository.js';
import type { QuestContext } from './quest-context.js';

/** Stores a task as done for a player in the period, and says so once (`quest.task_verified`: outbox, webhooks, NATS). */
@Injectable()
export class TaskProgressWriter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly progress: QuestTasksRepository,
    private readonly events: DomainEvents,
  ) {}

  async markDone(tenantId: string, userId: string, ctx: QuestContext, taskId: string, kind: string): Promise<void> {
    const key = { tenantId, questId: ctx.quest.id, taskId, userId, periodKey: ctx.period.key };
    await this.dataSource.transaction(async (em) => {
      if (!(await this.progress.markDone(key, ctx.now, em))) return;
      await this.events.publish(em, 'quest.task_verified', { ...key, kind, communityId: ctx.quest.communityId });
    });
  }

  /** After an answer or a review made a task done: the event, in the transaction of that change. */
  async announce(tenantId: string, userId: string, ctx: QuestContext, taskId: string, kind: string): Promise<void> {
    await this.dataSource.transaction((em) =>
      this.events.publish(em, 'quest.task_verified', {
        tenantId,
        questId: ctx.quest.id,
        taskId,
        kind,
        userId,
        communityId: ctx.quest.communityId,
        periodKey: ctx.period.key,
      }),
    );
  }
}
