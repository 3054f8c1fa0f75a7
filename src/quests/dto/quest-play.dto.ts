import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_PAGE, MAX_PAGE_SIZE } from '../../common/pagination/pagination.js';
import { ToInteger } from '../../common/validation/transforms.js';
import { QUEST_RECURRENCES, type QuestRecurrence } from '../schedule/quest-period.js';
import { QUEST_TASK_KINDS, type QuestTaskKind } from '../tasks/task-kinds.js';
import { QuestRewardDto } from './quest.dto.js';

export const PLAYER_TASK_STATES = ['todo', 'done', 'pending', 'rejected', 'failed', 'closed'] as const;
export type PlayerTaskState = (typeof PLAYER_TASK_STATES)[number];

export class TaskCountDto {
  @ApiProperty({ example: 2 })
  current: number;

  @ApiProperty({ example: 3 })
  target: number;
}

/** A submission task's rules, as the player needs them. */
export class SubmissionRulesDto {
  @ApiProperty({ enum: ['text', 'url'], example: 'url' })
  format: 'text' | 'url';

  @ApiProperty({ example: 2000 })
  maxLength: number;

  @ApiProperty({ example: 'Link your tweet about the launch' })
  instructions: string;
}

/** One task of a quest as the player stands on it in the current period. */
export class QuestTaskProgressDto {
  @ApiProperty({ format: 'uuid', example: '5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d' })
  id: string;

  @ApiProperty({ enum: QUEST_TASK_KINDS, example: 'social' })
  kind: QuestTaskKind;

  @ApiProperty({ example: 'Join our Discord' })
  title: string;

  @ApiProperty({ example: '' })
  description: string;

  /**
   * `todo`: not done yet; `done`; `pending`: a submission waits for review; `rejected`: it was
   * refused (`reviewReason`; submit again); `failed`: wrong answers so far (`attemptsLeft`,
   * `retryAt`); `closed`: no attempt left in this period.
   */
  @ApiProperty({ enum: PLAYER_TASK_STATES, example: 'todo' })
  state: PlayerTaskState;

  /** What is missing, when it is not done and the service knows why ("Link a discord account first"). */
  @ApiProperty({ type: String, nullable: true, example: 'Link a discord account first' })
  missing: string | null;

  /** Counted tasks (events, referrals, a resource): how far the player is. */
  @ApiProperty({ type: TaskCountDto, nullable: true })
  progress: TaskCountDto | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: null,
    description: 'Answer tasks: wrong answers left in this period (null: no limit or not an answer task).',
  })
  attemptsLeft: number | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null, description: 'When the player may answer again.' })
  retryAt: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'A rejected submission: the operator’s reason.' })
  reviewReason: string | null;

  /** Visit tasks: the link to open (the service records the visit and redirects to the page). */
  @ApiProperty({ type: String, nullable: true, example: null })
  visitUrl: string | null;

  @ApiProperty({ type: SubmissionRulesDto, nullable: true })
  submission: SubmissionRulesDto | null;

  /** Social tasks: the account type to link. */
  @ApiProperty({ type: String, nullable: true, example: 'discord' })
  accountType: string | null;
}

export class QuestPeriodDto {
  /** `once`, `2026-12-02` (daily), `2026-W49` (ISO week), `2026-12` (monthly), in the community's time zone. */
  @ApiProperty({ example: '2026-12-02' })
  key: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-12-01T23:00:00.000Z' })
  startsAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-12-02T23:00:00.000Z' })
  endsAt: string | null;
}

export class QuestStreakDto {
  /** Consecutive periods completed up to this one (0 when the last one was missed). */
  @ApiProperty({ example: 3 })
  current: number;

  @ApiProperty({ example: 7 })
  best: number;

  /** A bonus comes at every this many consecutive periods (null: none). */
  @ApiProperty({ type: Number, nullable: true, example: 7 })
  bonusEvery: number | null;
}

/** Whether the player may claim the quest now, and if not why and until when. */
export class QuestAvailabilityDto {
  @ApiProperty({ example: true })
  open: boolean;

  @ApiProperty({ type: String, nullable: true, example: null })
  reason: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  retryAt: string | null;
}

/** This period's completion. */
export class PeriodCompletionDto {
  @ApiProperty({ format: 'uuid', example: '4e3d2c1b-0a9f-4e8d-8c7b-6a5f4e3d2c1b', nullable: true, type: String })
  completionId: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-12-02T10:00:00.000Z' })
  completedAt: string;

  /** true when this request completed it (its rewards credited now); false when it was completed before. */
  @ApiProperty({ example: true })
  created: boolean;

  @ApiProperty({ type: [QuestRewardDto] })
  rewards: QuestRewardDto[];

  /** The streak bonus this completion reached (empty: none). */
  @ApiProperty({ type: [QuestRewardDto] })
  streakRewards: QuestRewardDto[];
}

/** A quest as the player stands on it: the period, each task's state, and the completion. */
export class QuestProgressDto {
  @ApiProperty({ format: 'uuid', example: '6c1f3e0a-2b7e-4a55-9a0c-2f9d1a4e5b11' })
  questId: string;

  @ApiProperty({ example: 'Daily login' })
  name: string;

  @ApiProperty({ enum: QUEST_RECURRENCES, example: 'daily' })
  recurrence: QuestRecurrence;

  @ApiProperty({ type: QuestPeriodDto })
  period: QuestPeriodDto;

  @ApiProperty({ type: [QuestRewardDto] })
  rewards: QuestRewardDto[];

  @ApiProperty({ type: QuestAvailabilityDto })
  availability: QuestAvailabilityDto;

  /** Whether the player completed the quest in this period. */
  @ApiProperty({ example: false })
  completed: boolean;

  @ApiProperty({ type: PeriodCompletionDto, nullable: true })
  completion: PeriodCompletionDto | null;

  /** Completions over every period. */
  @ApiProperty({ example: 0 })
  completions: number;

  @ApiProperty({ type: QuestStreakDto, nullable: true })
  streak: QuestStreakDto | null;

  @ApiProperty({ type: [QuestTaskProgressDto] })
  tasks: QuestTaskProgressDto[];
}

export class QuestHistoryItemDto {
  @ApiProperty({ format: 'uuid', example: '4e3d2c1b-0a9f-4e8d-8c7b-6a5f4e3d2c1b' })
  completionId: string;

  @ApiProperty({ format: 'uuid', example: '6c1f3e0a-2b7e-4a55-9a0c-2f9d1a4e5b11' })
  questId: string;

  @ApiProperty({ example: 'Daily login' })
  questName: string;

  @ApiProperty({ format: 'uuid', example: '2f1e7c3a-8b4d-4c6e-9f0a-1b2c3d4e5f60' })
  communityId: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  questEventId: string | null;

  @ApiProperty({ example: '2026-12-02' })
  periodKey: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-12-02T10:00:00.000Z' })
  completedAt: string;
}

export class QuestHistoryQueryDto {
  @ApiPropertyOptional({ type: Number, minimum: 1, default: 1 })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page?: number;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;
}
