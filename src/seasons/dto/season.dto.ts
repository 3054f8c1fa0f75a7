import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNumber, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import {
  IfPresent,
  IsUuid,
  NotBlank,
  OptionalDate,
  OptionalInt,
  OptionalNestedList,
  OptionalText,
  OptionalUuids,
  RequiredDate,
  RequiredText,
} from '../../common/validation/decorators.js';
import { PageQueryDto } from '../../common/pagination/pagination.js';
import { SEASON_REWARD_TYPES, type SeasonRewardType } from '../entities/season.entity.js';

export const SEASON_STATUSES = ['upcoming', 'live', 'closing', 'closed'] as const;
const MAX_REWARDS = 20;
const MAX_RANK = 1_000_000;

/**
 * A rank reward: the final places `fromRank`..`toRank`, or the top `topPercent` % of the ranked
 * players (ceil(n × p / 100)). A player gets every reward whose range holds their final place.
 */
export class SeasonRewardDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_RANK, example: 1, description: 'First final place rewarded (with `toRank`).' })
  @OptionalInt({ min: 1, max: MAX_RANK })
  fromRank?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_RANK, example: 1, description: 'Last final place rewarded (with `fromRank`).' })
  @OptionalInt({ min: 1, max: MAX_RANK })
  toRank?: number;

  @ApiPropertyOptional({ minimum: 0.01, maximum: 100, example: 10, description: 'Instead of a rank range: the top p % (rounded up).' })
  @IfPresent()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0.01)
  @Max(100)
  topPercent?: number;

  @ApiProperty({ enum: SEASON_REWARD_TYPES, example: 'resource' })
  @IsIn(SEASON_REWARD_TYPES)
  type: SeasonRewardType;

  /** The resource type (`resource`: a global one; a scoped type is a quest event's score), item (`item`) or prize (`prize`) of the season's community. */
  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  @IsUuid('all')
  refId: string;

  /** Amount of the resource, or units of the item or prize (default 1). */
  @ApiPropertyOptional({ minimum: 1, maximum: 1_000_000_000, default: 1, example: 500 })
  @OptionalInt({ min: 1, max: 1_000_000_000 })
  amount?: number;
}

/** What a season counts, and its rewards (shared by one-off seasons and schedules). */
export class SeasonRulesDto {
  /** The community (id or slug). */
  @ApiProperty({ example: 'pixel-pirates' })
  @RequiredText({ max: 64 })
  communityId: string;

  /** The ranked resource type of the community (id or slug). */
  @ApiProperty({ example: 'xp' })
  @RequiredText({ max: 64 })
  resourceTypeId: string;

  @ApiProperty({ example: 'Weekly XP' })
  @RequiredText({ max: 160 })
  @NotBlank()
  name: string;

  /** Only ledger entries with one of these reasons count (e.g. `quest_completion`); absent: every earning. */
  @ApiPropertyOptional({ type: [String], maxItems: 20, example: ['quest_completion'] })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  reasons?: string[];

  /** Only completions of these quests count (Zealy's `includedQuestIds`); absent: every earning. */
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: 100 })
  @OptionalUuids({ max: 100 })
  questIds?: string[];

  @ApiPropertyOptional({ type: [SeasonRewardDto], maxItems: MAX_REWARDS })
  @OptionalNestedList(() => SeasonRewardDto, { max: MAX_REWARDS })
  rewards?: SeasonRewardDto[];
}

export class CreateSeasonDto extends SeasonRulesDto {
  /** When it opens; absent: now (a few seconds from now). Never in the past: earnings count as they are written. */
  @ApiPropertyOptional({ format: 'date-time', example: '2026-12-01T00:00:00.000Z' })
  @OptionalDate()
  startsAt?: Date;

  @ApiProperty({ format: 'date-time', example: '2026-12-08T00:00:00.000Z' })
  @RequiredDate()
  endsAt: Date;
}

export class CreateSeasonScheduleDto extends SeasonRulesDto {
  /** Five or six fields (seconds first); each occurrence ends a season and opens the next. At most hourly. */
  @ApiProperty({ example: '0 0 * * 1' })
  @RequiredText({ min: 9, max: 120 })
  @Matches(/^[0-9A-Za-z*/,\- ?#LW]+$/, { message: 'cron must be a cron expression' })
  cron: string;

  /** IANA time zone of the cron expression. */
  @ApiProperty({ example: 'Europe/Berlin' })
  @RequiredText({ max: 64 })
  timeZone: string;
}

export class UpdateSeasonScheduleDto {
  @ApiPropertyOptional({ example: 'Weekly XP' })
  @OptionalText({ min: 1, max: 160 })
  @NotBlank()
  name?: string;

  /** false: no further season is opened (the running one ends as planned). */
  @ApiPropertyOptional({ example: false })
  @IfPresent()
  @IsBoolean()
  active?: boolean;

  /** The rewards of the seasons it opens from now on. */
  @ApiPropertyOptional({ type: [SeasonRewardDto], maxItems: MAX_REWARDS })
  @OptionalNestedList(() => SeasonRewardDto, { max: MAX_REWARDS })
  rewards?: SeasonRewardDto[];
}

export class SeasonRewardViewDto {
  @ApiProperty({ type: Number, nullable: true, example: 1 })
  fromRank: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 1 })
  toRank: number | null;

  @ApiProperty({ type: Number, nullable: true, example: null })
  topPercent: number | null;

  @ApiProperty({ enum: SEASON_REWARD_TYPES, example: 'resource' })
  type: SeasonRewardType;

  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  refId: string;

  @ApiProperty({ example: 500 })
  amount: number;
}

export class SeasonDto {
  @ApiProperty({ format: 'uuid', example: '7d0c2f1e-4d3b-4a59-8b8e-2f4b9b1f0c11' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  resourceTypeId: string;

  @ApiProperty({ example: 'xp' })
  resourceSlug: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  scheduleId: string | null;

  /** 1, 2, 3... within its schedule. */
  @ApiProperty({ example: 12 })
  number: number;

  @ApiProperty({ example: 'Weekly XP #12' })
  name: string;

  @ApiProperty({ example: '2026-11-30T00:00:00.000Z' })
  startsAt: Date;

  /** Exclusive: what is earned from this instant on counts for the next season. */
  @ApiProperty({ example: '2026-12-07T00:00:00.000Z' })
  endsAt: Date;

  /** `closing`: ended, its standings being frozen and its rewards paid. */
  @ApiProperty({ enum: SEASON_STATUSES, example: 'live' })
  status: (typeof SEASON_STATUSES)[number];

  @ApiProperty({ type: [String], nullable: true, example: null })
  reasons: string[] | null;

  @ApiProperty({ type: [String], nullable: true, example: null })
  questIds: string[] | null;

  @ApiProperty({ type: [SeasonRewardViewDto] })
  rewards: SeasonRewardViewDto[];

  /** Players in the final standings (null until they are frozen). */
  @ApiProperty({ type: Number, nullable: true, example: null })
  ranked: number | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  closedAt: Date | null;
}

/** What the management API adds: how far closing went. */
export class AdminSeasonDto extends SeasonDto {
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  frozenAt: Date | null;

  /** The last final place whose rewards were paid. */
  @ApiProperty({ example: 0 })
  paidThrough: number;

  @ApiProperty({ example: 0 })
  rewardsPaid: number;

  /** Rewards whose grant was refused (e.g. the item's supply ran out). */
  @ApiProperty({ example: 0 })
  rewardsFailed: number;
}

export class SeasonScheduleDto {
  @ApiProperty({ format: 'uuid', example: '2c6f0d1e-8a4b-4f6e-9c3d-5b7a1e0f9d22' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  resourceTypeId: string;

  @ApiProperty({ example: 'Weekly XP' })
  name: string;

  @ApiProperty({ example: '0 0 * * 1' })
  cron: string;

  @ApiProperty({ example: 'Europe/Berlin' })
  timeZone: string;

  @ApiProperty({ type: [String], nullable: true, example: null })
  reasons: string[] | null;

  @ApiProperty({ type: [String], nullable: true, example: null })
  questIds: string[] | null;

  @ApiProperty({ type: [SeasonRewardViewDto] })
  rewards: SeasonRewardViewDto[];

  @ApiProperty({ example: true })
  active: boolean;

  /** When the next season opens (null when inactive). */
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-30T23:00:00.000Z' })
  nextStartsAt: Date | null;
}

export class SeasonListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: SEASON_STATUSES, description: 'Only seasons in this status (absent: all, latest first).' })
  @IsOptional()
  @IsIn(SEASON_STATUSES)
  status?: (typeof SEASON_STATUSES)[number];

  /** Only seasons of this resource type (slug or id). */
  @ApiPropertyOptional({ example: 'xp' })
  @OptionalText({ min: 1, max: 64 })
  resource?: string;
}

export class AdminSeasonListQueryDto extends SeasonListQueryDto {
  /** The community (id or slug). */
  @ApiProperty({ example: 'pixel-pirates' })
  @RequiredText({ max: 64 })
  communityId: string;
}

export class AdminScheduleListQueryDto extends PageQueryDto {
  /** The community (id or slug). */
  @ApiProperty({ example: 'pixel-pirates' })
  @RequiredText({ max: 64 })
  communityId: string;
}

/** One rank reward paid (or refused) to one player when the season closed. */
export class SeasonPayoutDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  /** The player's final place. */
  @ApiProperty({ example: 1 })
  position: number;

  /** Index of the reward in the season's `rewards`. */
  @ApiProperty({ example: 0 })
  reward: number;

  @ApiProperty({ enum: SEASON_REWARD_TYPES, example: 'resource' })
  type: SeasonRewardType;

  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  refId: string;

  @ApiProperty({ example: 500 })
  amount: number;

  /** `failed`: the grant was refused (e.g. the item's supply ran out); `error` says why. */
  @ApiProperty({ enum: ['paid', 'failed'], example: 'paid' })
  status: 'paid' | 'failed';

  @ApiProperty({ type: String, nullable: true, example: null })
  error: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-12-07T00:00:05.000Z' })
  createdAt: Date;
}
