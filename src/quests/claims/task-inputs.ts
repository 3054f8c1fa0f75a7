import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error.js';
import type { QuestProgressDto } from '../dto/quest-play.dto.js';
import type { QuestTask } from '../entities/quest-task.entity.js';
import { QuestErrors } from '../quests.errors.js';
import { answerMatches } from '../tasks/answer-check.js';
import { QuestTasksRepository } from '../tasks/quest-tasks.repository.js';
import type { AnswerSettings, QuestTaskKind, SubmissionSettings } from '../tasks/task-kinds.js';
import { VerificationLimits } from '../tasks/task-verifiers.js';
import { ClaimQuest } from './claim-quest.js';
import { QuestAvailability } from './quest-availability.js';
import { QuestContextLoader, type QuestContext } from './quest-context.js';
import { TaskProgressWriter } from './task-progress-writer.js';
import { idOf } from '../../common/validation/uuid.js';

/**
 * What a player sends to a task: an answer, or a submission. Each is taken only while the player
 * may claim the quest, and a task done by it is followed by the claim's checks (so the quest
 * completes at once when it was the last task).
 */
@Injectable()
export class TaskInputs {
  constructor(
    private readonly contexts: QuestContextLoader,
    private readonly progress: QuestTasksRepository,
    private readonly availability: QuestAvailability,
    private readonly limits: VerificationLimits,
    private readonly writer: TaskProgressWriter,
    private readonly claims: ClaimQuest,
  ) {}

  /**
   * An answer to an `answer` task: one attempt (limited per period, with a wait after a wrong one,
   * both enforced by the attempt's one statement), right or 400 `wrong_answer`.
   */
  async answer(tenantId: string, userId: string, questRef: string, taskRef: string, answer: string): Promise<QuestProgressDto> {
    const { ctx, task } = await this.open(tenantId, userId, questRef, taskRef, 'answer');
    const s = task.settings as AnswerSettings;
    const key = { tenantId, questId: ctx.quest.id, taskId: task.id, userId, periodKey: ctx.period.key };
    const attempts = await this.progress.takeAttempt(key, ctx.now, s.maxAttempts, s.retryAfterSeconds);
    if (attempts === null) throw await this.notOpen(ctx, task, userId);
    if (!answerMatches(answer, s)) {
      const attemptsLeft = s.maxAttempts === null ? null : Math.max(0, s.maxAttempts - attempts);
      const retryAt = s.retryAfterSeconds > 0 ? new Date(ctx.now.getTime() + s.retryAfterSeconds * 1000).toISOString() : null;
      throw new DomainError(
        QuestErrors.wrong_answer,
        attemptsLeft === 0 ? 'Wrong answer; no attempt left in this period' : 'Wrong answer',
        {
          attemptsLeft,
          retryAt,
        },
      );
    }
    if (await this.progress.answerRight(key, ctx.now)) await this.writer.announce(tenantId, userId, ctx, task.id, task.kind);
    return this.claims.checkAndComplete(tenantId, userId, ctx, { refuseWhenClosed: false });
  }

  /** A submission to a `submission` task: waits for review, or is done at once with `autoApprove`. */
  async submit(tenantId: string, userId: string, questRef: string, taskRef: string, content: string): Promise<QuestProgressDto> {
    const { ctx, task } = await this.open(tenantId, userId, questRef, taskRef, 'submission');
    const s = task.settings as SubmissionSettings;
    const text = content.trim();
    if (text.length > s.maxLength)
      throw new DomainError(QuestErrors.submission_invalid, `A submission is at most ${s.maxLength} characters`);
    if (s.format === 'url' && !isHttpUrl(text)) throw new DomainError(QuestErrors.submission_invalid, 'This task asks for an http(s) URL');
    const key = { tenantId, questId: ctx.quest.id, taskId: task.id, userId, periodKey: ctx.period.key };
    const row = await this.progress.submit(key, text, s.autoApprove ? 'done' : 'pending', ctx.now);
    if (!row) throw new DomainError(QuestErrors.task_not_open, 'The task is done in this period');
    if (s.autoApprove) await this.writer.announce(tenantId, userId, ctx, task.id, task.kind);
    return this.claims.checkAndComplete(tenantId, userId, ctx, { refuseWhenClosed: false });
  }

  private async open(
    tenantId: string,
    userId: string,
    questRef: string,
    taskRef: string,
    kind: QuestTaskKind,
  ): Promise<{ ctx: QuestContext; task: QuestTask }> {
    const ctx = await this.contexts.load(tenantId, questRef);
    const id = idOf(taskRef);
    const task = id ? ctx.tasks.find((t) => t.id === id) : undefined;
    if (!task) throw new DomainError(QuestErrors.task_not_found, `No task ${taskRef.slice(0, 64)} in this quest`);
    if (task.kind !== kind) throw new DomainError(QuestErrors.task_not_open, `The task is a ${task.kind} task, not a ${kind} task`);
    await this.limits.playerAction(tenantId, userId);
    const availability = await this.availability.check(tenantId, userId, ctx);
    if (!availability.open)
      throw new DomainError(
        QuestErrors.quest_not_claimable,
        availability.reason!,
        availability.retryAt ? { retryAt: availability.retryAt.toISOString() } : undefined,
      );
    return { ctx, task };
  }

  /** Why an attempt was refused: done, waiting (with when), or out of attempts. */
  private async notOpen(ctx: QuestContext, task: QuestTask, userId: string): Promise<DomainError> {
    const row = (await this.progress.findProgress(ctx.quest.tenantId, ctx.quest.id, userId, ctx.period.key)).find(
      (r) => r.taskId === task.id,
    );
    if (row?.state === 'done') return new DomainError(QuestErrors.task_not_open, 'The task is done in this period');
    if (row?.retryAt && row.retryAt > ctx.now)
      return new DomainError(QuestErrors.task_not_open, 'Wait before answering again', { retryAt: row.retryAt.toISOString() });
    return new DomainError(QuestErrors.task_not_open, 'No attempt left in this period');
  }
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.length > 0 && s.length <= 2048;
  } catch {
    return false;
  }
}
