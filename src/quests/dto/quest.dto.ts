import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { MAX_PAGE, MAX_PAGE_SIZE } from '../../common/pagination/pagination.js';
import { ToArray, ToBoolean, ToInteger } from '../../common/validation/transforms.js';
import {
  IfPresent,
  IsUuid,
  NotBlank,
  OptionalInt,
  OptionalLabels,
  OptionalNestedList,
  OptionalText,
  OptionalUuids,
  RequiredDate,
  RequiredText,
} from '../../common/validation/decorators.js';
import { Type } from 'class-transformer';
import { MAX_OPERATION_AMOUNT } from '../../resources/dto/ledger.dto.js';
import { QUEST_RECURRENCES, type QuestRecurrence } from '../schedule/quest-period.js';
import { QUEST_STATUSES, type QuestStatus } from '../entities/quest.entity.js';

const TAG_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 _.:-]*$/;

/** A reward of a quest: an amount of a resource type, or units of an inventory item. */
export class QuestRewardDto {
  @ApiProperty({ enum: ['resource', 'item'], example: 'resource' })
  @IsIn(['resource', 'item'])
  type: 'resource' | 'item';

  /** `resource` rewards: the resource type credited (global XP, or in an event's quest a scoped type bound to that event). */
  @ApiPropertyOptional({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  @ValidateIf((o: QuestRewardDto) => o.type === 'resource')
  @IsUuid()
  resourceTypeId?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_OPERATION_AMOUNT, example: 50 })
  @ValidateIf((o: QuestRewardDto) => o.type === 'resource')
  @IsInt()
  @Min(1)
  @Max(MAX_OPERATION_AMOUNT)
  amount?: number;

  /** `item` rewards: the inventory item granted. */
  @ApiPropertyOptional({ format: 'uuid', example: '0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f' })
  @ValidateIf((o: QuestRewardDto) => o.type === 'item')
  @IsUuid()
  itemId?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, example: 1 })
  @ValidateIf((o: QuestRewardDto) => o.type === 'item')
  @IsInt()
  @Min(1)
  @Max(1000)
  quantity?: number;
}

/** A bonus on top of a recurring quest's rewards at every `every`-th consecutive period completed. */
export class QuestStreakBonusDto {
  @ApiProperty({ minimum: 2, maximum: 366, example: 7 })
  @IsInt()
  @Min(2)
  @Max(366)
  every: number;

  @ApiProperty({ type: [QuestRewardDto], required: true })
  @IsDefined()
  @OptionalNestedList(() => QuestRewardDto, { max: 10 })
  rewards: QuestRewardDto[];
}

/** Who may claim a quest at all, checked before its tasks. */
export class QuestGatesDto {
  /** The account is at least this many days old. */
  @ApiPropertyOptional({ example: 7 })
  @OptionalInt({ min: 1, max: 3650 })
  minAccountAgeDays?: number;

  /** The player has an EVM wallet (a SIWE login). */
  @ApiPropertyOptional({ example: false })
  @IfPresent()
  @IsBoolean()
  requireWallet?: boolean;

  /** The player has linked socials of each of these account types. */
  @ApiPropertyOptional({ type: [String], example: ['discord'] })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(5)
  @IsString({ each: true })
  @Matches(/^[a-z0-9][a-z0-9_-]{0,31}$/, { each: true })
  requireSocials?: string[];
}

/** The schedule and conditions of a quest that players complete themselves (extension; all optional). */
class QuestScheduleFields {
  /** `once` (default), or a new period every `daily`, `weekly` (ISO weeks from Monday) or `monthly`, in the community's time zone. */
  @ApiPropertyOptional({ enum: QUEST_RECURRENCES })
  @IfPresent()
  @IsIn(QUEST_RECURRENCES)
  recurrence?: QuestRecurrence;

  /** Least time between two completions of a player, in seconds (null: none). */
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: 31_536_000 })
  @OptionalInt({ min: 1, max: 31_536_000, nullable: true })
  cooldownSeconds?: number | null;

  /** Most completions of a player over every period (null: no limit; a `once` quest has one). */
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: 100_000 })
  @OptionalInt({ min: 1, max: 100_000, nullable: true })
  maxCompletions?: number | null;

  /** Claims are taken from then on (null: at once). */
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @ValidateIf((_o, v) => v !== null && v !== undefined)
  @RequiredDate()
  availableFrom?: Date | null;

  /** Claims are taken until then (null: no end). */
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @ValidateIf((_o, v) => v !== null && v !== undefined)
  @RequiredDate()
  availableUntil?: Date | null;

  /** Quests of the community the player must have completed first (at most 10). */
  @ApiPropertyOptional({ type: [String], format: 'uuid' })
  @OptionalUuids({ max: 10 })
  prerequisites?: string[];

  @ApiPropertyOptional({ type: QuestStreakBonusDto, nullable: true })
  @ValidateIf((_o, v) => v !== null && v !== undefined)
  @ValidateNested()
  @Type(() => QuestStreakBonusDto)
  streakBonus?: QuestStreakBonusDto | null;

  @ApiPropertyOptional({ type: QuestGatesDto })
  @IfPresent()
  @ValidateNested()
  @Type(() => QuestGatesDto)
  gates?: QuestGatesDto;
}

export class CreateQuestDto extends QuestScheduleFields {
  /** The community (id or slug). */
  @ApiProperty({ example: 'space-pirates' })
  @RequiredText({ max: 64 })
  communityId: string;

  @ApiProperty({ example: 'Follow us on X' })
  @RequiredText({ max: 200 })
  @NotBlank()
  name: string;

  /** Free-form (letters, digits, `_ -`), stored lowercase, e.g. `social`, `onchain`, `daily`. */
  @ApiProperty({ example: 'social' })
  @IsString()
  @Length(1, 64)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_-]*$/)
  type: string;

  @ApiPropertyOptional({ enum: QUEST_STATUSES, default: 'active' })
  @IfPresent()
  @IsIn(QUEST_STATUSES)
  status?: QuestStatus;

  /** At most 20 tags of 1-64 characters, stored lowercase. */
  @ApiPropertyOptional({ type: [String], example: ['twitter', 'onboarding'] })
  @OptionalLabels(TAG_PATTERN)
  tags?: string[];

  @ApiPropertyOptional({ type: [QuestRewardDto] })
  @OptionalNestedList(() => QuestRewardDto, { max: 10 })
  rewards?: QuestRewardDto[];

  /** The quest event (id or slug) the quest belongs to, if any; it must be of the same community. */
  @OptionalText({ min: 1, max: 64 })
  questEventId?: string;

  @OptionalText({ max: 5000 })
  description?: string;

  @IfPresent()
  @IsBoolean()
  featured?: boolean;

  /** A template quest (a blueprint shown as such; `excludeTemplateTags` leaves it out of tag statistics). */
  @IfPresent()
  @IsBoolean()
  template?: boolean;
}

/** Community and event are fixed once created. */
export class UpdateQuestDto extends QuestScheduleFields {
  @ApiPropertyOptional({ enum: QUEST_STATUSES })
  @IfPresent()
  @IsIn(QUEST_STATUSES)
  status?: QuestStatus;

  @ApiPropertyOptional({ type: [String] })
  @OptionalLabels(TAG_PATTERN)
  tags?: string[];

  @ApiPropertyOptional({ type: [QuestRewardDto] })
  @OptionalNestedList(() => QuestRewardDto, { max: 10 })
  rewards?: QuestRewardDto[];

  @OptionalText({ min: 1, max: 200 })
  @NotBlank()
  name?: string;

  @OptionalText({ max: 5000 })
  description?: string;

  @IfPresent()
  @IsString()
  @Length(1, 64)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_-]*$/)
  type?: string;

  @IfPresent()
  @IsBoolean()
  featured?: boolean;

  @IfPresent()
  @IsBoolean()
  template?: boolean;
}

export class QuestDto {
  @ApiProperty({ format: 'uuid', example: '6c1f3e0a-2b7e-4a55-9a0c-2f9d1a4e5b11' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '2f1e7c3a-8b4d-4c6e-9f0a-1b2c3d4e5f60' })
  communityId: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  questEventId: string | null;

  @ApiProperty({ example: 'Follow us on X' })
  name: string;

  @ApiProperty({ example: '' })
  description: string;

  @ApiProperty({ example: 'social' })
  type: string;

  @ApiProperty({ enum: QUEST_STATUSES, example: 'active' })
  status: QuestStatus;

  @ApiProperty({ type: [String], example: ['twitter', 'onboarding'] })
  tags: string[];

  @ApiProperty({ type: [QuestRewardDto] })
  rewards: QuestRewardDto[];

  @ApiProperty({ example: false })
  featured: boolean;

  @ApiProperty({ example: false })
  template: boolean;

  /** Whether the current user completed it (user routes; false on management routes): a recurring quest in its current period. */
  @ApiProperty({ example: false })
  completed: boolean;

  /** `once`, `daily`, `weekly` or `monthly` (extension). */
  @ApiPropertyOptional({ enum: QUEST_RECURRENCES, example: 'once' })
  recurrence?: QuestRecurrence;

  /** How many tasks players complete it with (0: the game completes it through the management API) (extension). */
  @ApiPropertyOptional({ example: 0 })
  taskCount?: number;

  @ApiPropertyOptional({ type: Number, nullable: true, example: null })
  cooldownSeconds?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, example: null })
  maxCompletions?: number | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: null })
  availableFrom?: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: null })
  availableUntil?: string | null;

  @ApiPropertyOptional({ type: [String], format: 'uuid', example: [] })
  prerequisites?: string[];

  @ApiPropertyOptional({ type: QuestStreakBonusDto, nullable: true })
  streakBonus?: QuestStreakBonusDto | null;

  @ApiPropertyOptional({ type: QuestGatesDto })
  gates?: QuestGatesDto;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-06-12T12:00:00.000Z' })
  createdAt: string;
}

/**
 * Every parameter is required, as in the interface. To mean "no filter" send the parameter with
 * an empty value (`tags=&questTypes=&featured=&query=`); `page` and `limit` need numbers.
 */
export class ListQuestsQueryDto {
  /** Quests having ANY of these tags (repeat or comma-separate). Empty: any tag. */
  @ApiProperty({ type: [String], required: true, example: ['twitter'] })
  @IsDefined({ message: 'tags is required (send tags= for no tag filter)' })
  @ToArray()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  tags: string[];

  /** Quests of ANY of these types. Empty: any type. */
  @ApiProperty({ type: [String], required: true, example: ['social'] })
  @IsDefined({ message: 'questTypes is required (send questTypes= for no type filter)' })
  @ToArray()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  questTypes: string[];

  /** `true`: featured quests only; `false`: non-featured only; empty: both. `true`/`false` in any case, or `1`/`0`. */
  @ApiProperty({ type: String, enum: ['', 'true', 'false'], required: true, example: '' })
  @IsDefined({ message: 'featured is required (send featured= for no filter)' })
  @ToBoolean()
  @IsIn(['', true, false], { message: 'featured must be true, false or empty' })
  featured: boolean | '';

  /** Case-insensitive text searched in name and description. Empty: no text filter. */
  @ApiProperty({ required: true, maxLength: 200, example: '' })
  @IsDefined({ message: 'query is required (send query= for no text filter)' })
  @IsString()
  @MaxLength(200)
  query: string;

  /** Page number, starting at 1. */
  @ApiProperty({ required: true, minimum: 1, maximum: MAX_PAGE, example: 1, type: Number })
  @IsDefined()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page: number;

  /** Items per page (at most 100). */
  @ApiProperty({ required: true, minimum: 1, maximum: MAX_PAGE_SIZE, example: 20, type: Number })
  @IsDefined()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number;
}

/** Every parameter is required, as in the interface; see each for its "no filter" value. */
export class QuestTagsQueryDto {
  /** `true`: template quests are left out of the statistics (tags only templates use disappear). */
  @ApiProperty({ required: true, type: Boolean, example: false })
  @IsDefined()
  @ToBoolean()
  @IsBoolean()
  excludeTemplateTags: boolean;

  /** `true`: count only quests the user has not completed yet (tags with none disappear). */
  @ApiProperty({ required: true, type: Boolean, example: false })
  @IsDefined()
  @ToBoolean()
  @IsBoolean()
  userAvailableQuests: boolean;

  /** `true`: each tag carries the sum of its quests' rewards; `false` or empty: it does not. `true`/`false` in any case, or `1`/`0`. */
  @ApiProperty({ type: String, enum: ['', 'true', 'false'], required: true, example: 'true' })
  @IsDefined({ message: 'includeRewards is required (true, false or empty)' })
  @ToBoolean()
  @IsIn(['', true, false], { message: 'includeRewards must be true, false or empty' })
  includeRewards: boolean | '';

  /** Whose completions to count: a user id of the tenant; empty: the current user. */
  @ApiProperty({ required: true, example: '' })
  @IsDefined({ message: 'userId is required (send userId= for the current user)' })
  @IsString()
  @ValidateIf((o: QuestTagsQueryDto) => o.userId !== '')
  @IsUuid(undefined, { message: 'userId must be a user id or empty' })
  userId: string;
}

export class QuestTagDto {
  @ApiProperty({ example: 'twitter' })
  tag: string;

  /** Quests with this tag (after `excludeTemplateTags` / `userAvailableQuests`). */
  @ApiProperty({ example: 4 })
  questCount: number;

  /** Of all active quests with this tag, how many the user completed. */
  @ApiProperty({ example: 1 })
  completedCount: number;

  /** Of all active quests with this tag, how many the user has not completed. */
  @ApiProperty({ example: 3 })
  availableCount: number;

  /** With `includeRewards=true`: the rewards of the counted quests, summed per resource type and item. */
  @ApiPropertyOptional({ type: [QuestRewardDto] })
  rewards?: QuestRewardDto[];
}

export class CompleteQuestDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  @IsUuid()
  userId: string;
}

export class QuestCompletionDto {
  @ApiProperty({ format: 'uuid', example: '4e3d2c1b-0a9f-4e8d-8c7b-6a5f4e3d2c1b' })
  questId: string;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ format: 'date-time', example: '2025-06-12T12:00:00.000Z' })
  completedAt: Date;

  /** false when the user had already completed the quest: nothing was credited this time. */
  @ApiProperty({ example: true })
  created: boolean;

  @ApiProperty({ type: [QuestRewardDto] })
  rewards: QuestRewardDto[];

  /** The period completed: `once`, or the day, ISO week or month of a recurring quest (extension). */
  @ApiPropertyOptional({ example: 'once' })
  periodKey?: string;
}

export class AdminQuestListQueryDto {
  /** The community (id or slug). */
  @ApiProperty({ example: 'space-pirates' })
  @RequiredText({ max: 64 })
  communityId: string;

  /** Page number, starting at 1 (default 1). */
  @ApiPropertyOptional({ type: Number, minimum: 1 })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page?: number;

  /** Items per page (default 20, at most 100). */
  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: MAX_PAGE_SIZE })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;
}
