import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import type { PlayerTaskState, QuestProgressDto, QuestTaskProgressDto } from '../dto/quest-play.dto.js';
import type { QuestTask } from '../entities/quest-task.entity.js';
import { toRewardDto } from '../quest.mapper.js';
import { QuestsRepository } from '../quests.repository.js';
import type { ProgressRow } from '../tasks/quest-tasks.repository.js';
import type { AnswerSettings, SocialSettings, SubmissionSettings } from '../tasks/task-kinds.js';
import type { Verdict } from '../tasks/verifiers/verifier.js';
import type { CompletionResult } from './complete-quest.js';
import type { Availability } from './quest-availability.js';
import type { QuestContext } from './quest-context.js';
import { QuestStreaksRepository } from './quest-streaks.repository.js';
import { VisitLinks } from './visit-links.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Builds what a player sees of a quest: each task's state in the period, the completion, the streak. */
@Injectable()
export class QuestProgressView {
  constructor(
    private readonly quests: QuestsRepository,
    private readonly streaks: QuestStreaksRepository,
    private readonly visits: VisitLinks,
    private readonly config: AppConfig,
  ) {}

  async build(
    ctx: QuestContext,
    tenantId: string,
    userId: string,
    progress: ProgressRow[],
    verdicts: ReadonlyMap<string, Verdict>,
    availability: Availability,
    completed: CompletionResult | null,
    /** This period's completion when the caller read it (undefined: read here). */
    known?: { id: string; completedAt: Date } | null,
  ): Promise<QuestProgressDto> {
    const { quest, period } = ctx;
    const rows = new Map(progress.map((p) => [p.taskId, p]));
    const [stored, streak] = await Promise.all([
      completed ? null : known !== undefined ? known : this.quests.findCompletion(tenantId, quest.id, userId, period.key),
      quest.recurrence === 'once' || (completed?.streak ?? null) !== null
        ? null
        : this.streaks.find(quest.id, userId, period.key, ctx.previousKey),
    ]);
    const completion = completed
      ? {
          completionId: completed.completionId,
          completedAt: completed.completedAt.toISOString(),
          created: completed.created,
          rewards: completed.rewards.map(toRewardDto),
          streakRewards: completed.streakRewards.map(toRewardDto),
        }
      : stored
        ? {
            completionId: stored.id,
            completedAt: stored.completedAt.toISOString(),
            created: false,
            rewards: quest.rewards.map(toRewardDto),
            streakRewards: [],
          }
        : null;
    const tasks = await Promise.all(ctx.tasks.map((t) => this.task(t, rows.get(t.id), verdicts.get(t.id), tenantId, userId, ctx)));
    return {
      questId: quest.id,
      name: quest.name,
      recurrence: quest.recurrence,
      period: { key: period.key, startsAt: iso(period.start), endsAt: iso(period.end) },
      rewards: quest.rewards.map(toRewardDto),
      availability: completion
        ? { open: false, reason: 'Completed in this period', retryAt: iso(period.end) }
        : { open: availability.open, reason: availability.reason, retryAt: iso(availability.retryAt) },
      completed: completion !== null,
      completion,
      completions: availability.completions + (completed?.created ? 1 : 0),
      streak:
        quest.recurrence === 'once'
          ? null
          : {
              current: completed?.streak?.current ?? streak?.current ?? 0,
              best: completed?.streak?.best ?? streak?.best ?? 0,
              bonusEvery: quest.streakBonus?.every ?? null,
            },
      tasks,
    };
  }

  private async task(
    t: QuestTask,
    row: ProgressRow | undefined,
    verdict: Verdict | undefined,
    tenantId: string,
    userId: string,
    ctx: QuestContext,
  ): Promise<QuestTaskProgressDto> {
    let state: PlayerTaskState = 'todo';
    let attemptsLeft: number | null = null;
    if (row?.state === 'done' || verdict?.done) state = 'done';
    else if (row?.state === 'pending') state = 'pending';
    else if (row?.state === 'rejected') state = 'rejected';
    if (t.kind === 'answer' && state !== 'done') {
      const max = (t.settings as AnswerSettings).maxAttempts;
      attemptsLeft = max === null ? null : Math.max(0, max - (row?.attempts ?? 0));
      if (row && row.attempts > 0) state = attemptsLeft === 0 ? 'closed' : 'failed';
    }
    const retry = state === 'failed' && row?.retryAt && row.retryAt > ctx.now ? row.retryAt : null;
    const sub = t.kind === 'submission' ? (t.settings as SubmissionSettings) : null;
    return {
      id: t.id,
      kind: t.kind,
      title: t.title,
      description: t.description,
      state,
      missing: state === 'done' ? null : (verdict?.missing ?? null),
      progress: verdict?.progress ?? null,
      attemptsLeft,
      retryAt: iso(retry),
      reviewReason: state === 'rejected' ? (row?.reviewReason ?? null) : null,
      visitUrl:
        t.kind === 'visit' && state !== 'done'
          ? `${this.config.PUBLIC_BASE_URL}/v1/quests/visits/${await this.visits.issue(tenantId, ctx.quest.id, t.id, userId, ctx.now)}`
          : null,
      submission: sub ? { format: sub.format, maxLength: sub.maxLength, instructions: sub.instructions } : null,
      accountType: t.kind === 'social' ? (t.settings as SocialSettings).accountType : null,
    };
  }
}
