import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error.js';
import type { QuestProgressDto } from '../dto/quest-play.dto.js';
import { QuestErrors } from '../quests.errors.js';
import { QuestTasksRepository, type ProgressRow } from '../tasks/quest-tasks.repository.js';
import { TaskVerifiers, VerificationLimits } from '../tasks/task-verifiers.js';
import type { Verdict } from '../tasks/verifiers/verifier.js';
import { CompleteQuest, type CompletionResult } from './complete-quest.js';
import { QuestAvailability } from './quest-availability.js';
import { QuestContextLoader, type QuestContext } from './quest-context.js';
import { QuestProgressView } from './quest-progress.view.js';
import { TaskProgressWriter } from './task-progress-writer.js';

/**
 * A player's claim of a quest: every task not done yet in the period that a claim can check is
 * checked now (outside any transaction: another system may take seconds), the newly done ones
 * are stored (each once, with `quest.task_verified`), and when every task is done the quest is
 * completed (`CompleteQuest`, exactly once per period). The answer says where each task stands.
 * Reading a quest's progress is the same without checks.
 */
@Injectable()
export class ClaimQuest {
  constructor(
    private readonly contexts: QuestContextLoader,
    private readonly progress: QuestTasksRepository,
    private readonly verifiers: TaskVerifiers,
    private readonly limits: VerificationLimits,
    private readonly availability: QuestAvailability,
    private readonly completion: CompleteQuest,
    private readonly view: QuestProgressView,
    private readonly writer: TaskProgressWriter,
  ) {}

  /** Where the player stands on the quest, nothing checked. */
  async show(tenantId: string, userId: string, questRef: string): Promise<QuestProgressDto> {
    const ctx = await this.contexts.load(tenantId, questRef);
    const [rows, availability] = await Promise.all([
      this.progress.findProgress(tenantId, ctx.quest.id, userId, ctx.period.key),
      this.availability.check(tenantId, userId, ctx),
    ]);
    return this.view.build(ctx, tenantId, userId, rows, new Map(), availability, null);
  }

  async claim(tenantId: string, userId: string, questRef: string): Promise<QuestProgressDto> {
    const ctx = await this.contexts.load(tenantId, questRef);
    await this.limits.playerAction(tenantId, userId);
    return this.checkAndComplete(tenantId, userId, ctx, { refuseWhenClosed: true });
  }

  /**
   * Checks what a claim checks and completes the quest when every task is done. `refuseWhenClosed`:
   * a claim of a quest the player may not claim now is a 409; after a task's input (an answer) the
   * progress is answered as it stands instead.
   */
  async checkAndComplete(
    tenantId: string,
    userId: string,
    ctx: QuestContext,
    { refuseWhenClosed }: { refuseWhenClosed: boolean },
  ): Promise<QuestProgressDto> {
    const { quest, period } = ctx;
    const [availability, stored, read] = await Promise.all([
      this.availability.check(tenantId, userId, ctx),
      this.completion.completedIn(tenantId, quest.id, userId, period.key),
      this.progress.findProgress(tenantId, quest.id, userId, period.key),
    ]);
    let rows = read;
    if (!availability.open && !stored) {
      if (refuseWhenClosed)
        throw new DomainError(
          QuestErrors.quest_not_claimable,
          availability.reason!,
          availability.retryAt ? { retryAt: availability.retryAt.toISOString() } : undefined,
        );
      return this.view.build(ctx, tenantId, userId, rows, new Map(), availability, null, stored);
    }
    const verdicts = new Map<string, Verdict>();
    if (!stored) {
      const done = new Set(rows.filter((r) => r.state === 'done').map((r) => r.taskId));
      let changed = false;
      for (const task of ctx.tasks) {
        if (done.has(task.id) || !this.verifiers.checks(task.kind)) continue;
        const verdict = await this.verifiers.verify({ tenantId, userId, quest, task, period, now: ctx.now });
        verdicts.set(task.id, verdict);
        if (!verdict.done) continue;
        await this.writer.markDone(tenantId, userId, ctx, task.id, task.kind);
        done.add(task.id);
        changed = true;
      }
      if (changed) rows = await this.progress.findProgress(tenantId, quest.id, userId, period.key);
    }
    let completed: CompletionResult | null = null;
    if (!stored && ctx.tasks.every((t) => rows.some((r: ProgressRow) => r.taskId === t.id && r.state === 'done'))) {
      try {
        completed = await this.completion.complete(tenantId, quest, userId, period, ctx.previousKey);
      } catch (err) {
        // After an answer or a submission the task stays done: the progress says why the quest
        // cannot complete yet (its event is not active), and a later claim completes it.
        if (refuseWhenClosed || !(err instanceof DomainError) || err.definition !== QuestErrors.quest_not_completable) throw err;
        return this.view.build(ctx, tenantId, userId, rows, verdicts, { ...availability, open: false, reason: err.message }, null, stored);
      }
    }
    return this.view.build(ctx, tenantId, userId, rows, verdicts, availability, completed, stored);
  }
}
