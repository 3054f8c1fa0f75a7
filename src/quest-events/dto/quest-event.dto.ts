import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';
import { MAX_PAGE, MAX_PAGE_SIZE, PageQueryDto } from '../../common/pagination/pagination.js';
import { ToArray, ToBoolean, ToInteger } from '../../common/validation/transforms.js';
import {
  IfPresent,
  IsUuid,
  NotBlank,
  OptionalDate,
  OptionalInt,
  OptionalLabels,
  OptionalText,
  OptionalUrl,
  RequiredDate,
  RequiredText,
} from '../../common/validation/decorators.js';
import { EVENT_STATUSES, type EventStatus } from '../event-status.js';

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const FEATURE = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

export class CompletionRuleDto {
  /** Minimum score (earned scoped resource) to receive tickets. */
  @ApiProperty({ example: 1 })
  minScore: number;

  /** Only ranks 1..maxRank receive tickets; null: any rank. */
  @ApiProperty({ type: Number, nullable: true, example: 100 })
  maxRank: number | null;
}

export class QuestEventDto {
  @ApiProperty({ format: 'uuid', example: '9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '2f1e7c3a-8b4d-4c6e-9f0a-1b2c3d4e5f60' })
  communityId: string;

  @ApiProperty({ example: 'spring-cup' })
  slug: string;

  @ApiProperty({ example: 'Spring Cup' })
  name: string;

  @ApiProperty({ example: '' })
  description: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  imageUrl: string | null;

  @ApiProperty({ type: [String], example: ['score-based'] })
  features: string[];

  /** Derived from the explicit state and the times on the server clock (see the decisions). */
  @ApiProperty({ enum: EVENT_STATUSES, example: 'registration_open' })
  status: EventStatus;

  /** Whether a user may register now (the registration window can overlap the active period). */
  @ApiProperty({ example: true })
  registrationOpen: boolean;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-06-01T12:00:00.000Z' })
  registrationStartsAt: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-06-07T12:00:00.000Z' })
  registrationEndsAt: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-06-05T12:00:00.000Z' })
  startsAt: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-06-12T12:00:00.000Z' })
  endsAt: string;

  @ApiProperty({ type: Number, nullable: true, example: 50 })
  capacity: number | null;

  /** REGISTERED participants now. */
  @ApiProperty({ example: 12 })
  registeredCount: number;

  /** The scoped resource type whose earned amount is the score; null: the event has no score. */
  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: '7c5d4e3f-2a1b-4c0d-9e8f-7a6b5c4d3e2f' })
  scoreResourceTypeId: string | null;

  @ApiProperty({ type: CompletionRuleDto })
  completionRule: CompletionRuleDto;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2025-06-12T12:00:00.000Z' })
  completedAt: string | null;

  /** The current user's ParticipantStatus (1 REGISTERED, 2 UNREGISTERED, 3 DROPPED, 4 CANCELLED); null: never registered or no session. */
  @ApiProperty({ type: Number, nullable: true, enum: [1, 2, 3, 4], example: 1 })
  participantStatus: number | null;
}

export class CreateQuestEventDto {
  /** The community (id or slug). */
  @ApiProperty({ example: 'space-pirates' })
  @RequiredText({ max: 64 })
  communityId: string;

  /** Lowercase letters, digits and dashes, unique in the tenant, not uuid-shaped. */
  @ApiProperty({ example: 'spring-cup' })
  @IsString()
  @Matches(SLUG, { message: 'slug must be 1-64 lowercase letters, digits and dashes' })
  slug: string;

  @ApiProperty({ example: 'Spring Cup' })
  @RequiredText({ max: 200 })
  @NotBlank()
  name: string;

  @ApiPropertyOptional({ type: [String], example: ['score-based'] })
  @OptionalLabels(FEATURE)
  features?: string[];

  @ApiProperty({ type: String, format: 'date-time', example: '2025-06-01T12:00:00.000Z' })
  @RequiredDate()
  registrationStartsAt: Date;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-06-07T12:00:00.000Z' })
  @RequiredDate()
  registrationEndsAt: Date;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-06-05T12:00:00.000Z' })
  @RequiredDate()
  startsAt: Date;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-06-12T12:00:00.000Z' })
  @RequiredDate()
  endsAt: Date;

  /** Most REGISTERED participants; absent: unlimited. */
  @ApiPropertyOptional({ minimum: 1, maximum: 10_000_000 })
  @OptionalInt({ min: 1, max: 10_000_000, nullable: true })
  capacity?: number;

  @ApiPropertyOptional({ minimum: 0, default: 1 })
  @OptionalInt({ min: 0, max: Number.MAX_SAFE_INTEGER })
  minScore?: number;

  @ApiPropertyOptional({ minimum: 1 })
  @OptionalInt({ min: 1, max: 10_000_000, nullable: true })
  maxRank?: number;

  @OptionalText({ max: 5000 })
  description?: string;

  @OptionalUrl({ nullable: true })
  imageUrl?: string;

  /** A scoped resource type of the same community whose `questEventId` is empty (it is set to this event) or this event. */
  @IfPresent()
  @IsUuid()
  scoreResourceTypeId?: string;

  /** false: the event is created as a draft (invisible to users) and published later. Default true. */
  @IfPresent()
  @IsBoolean()
  publish?: boolean;
}

/** Anything but the community and slug; only while the event is a draft or published and not ended. */
export class UpdateQuestEventDto {
  @ApiPropertyOptional({ type: String, nullable: true })
  @OptionalUrl({ nullable: true })
  imageUrl?: string | null;

  @ApiPropertyOptional({ type: [String] })
  @OptionalLabels(FEATURE)
  features?: string[];

  @ApiPropertyOptional({ type: String, format: 'date-time', example: '2025-06-01T12:00:00.000Z' })
  @OptionalDate()
  registrationStartsAt?: Date;

  @ApiPropertyOptional({ type: String, format: 'date-time', example: '2025-06-07T12:00:00.000Z' })
  @OptionalDate()
  registrationEndsAt?: Date;

  @ApiPropertyOptional({ type: String, format: 'date-time', example: '2025-06-05T12:00:00.000Z' })
  @OptionalDate()
  startsAt?: Date;

  @ApiPropertyOptional({ type: String, format: 'date-time', example: '2025-06-12T12:00:00.000Z' })
  @OptionalDate()
  endsAt?: Date;

  /** Not below the current number of REGISTERED participants. */
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1 })
  @OptionalInt({ min: 1, max: 10_000_000, nullable: true })
  capacity?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1 })
  @OptionalInt({ min: 1, max: 10_000_000, nullable: true })
  maxRank?: number | null;

  @OptionalText({ min: 1, max: 200 })
  @NotBlank()
  name?: string;

  @OptionalText({ max: 5000 })
  description?: string;

  /** As at creation: a scoped type of the community bound to no event (it is bound to this one) or to this one. */
  @IfPresent()
  @IsUuid()
  scoreResourceTypeId?: string;

  @OptionalInt({ min: 0, max: Number.MAX_SAFE_INTEGER })
  minScore?: number;

  /** true publishes a draft. */
  @IfPresent()
  @IsBoolean()
  publish?: boolean;
}

/** `filter` of the event list: `filter[containerId]=...&filter[features]=...&filter[status]=active&filter[status]=completed`. */
export class QuestEventFilterDto {
  /** The community (id or slug). */
  @ApiPropertyOptional({ example: 'space-pirates' })
  @OptionalText({ min: 1, max: 64 })
  containerId?: string;

  /** Events having ALL these features (comma-separated). */
  @ApiPropertyOptional({ example: 'score-based' })
  @OptionalText({ max: 500 })
  features?: string;

  /** Events in ANY of these statuses. */
  @ApiPropertyOptional({ type: [String], enum: EVENT_STATUSES, isArray: true, example: ['active', 'completed'] })
  @IsOptional()
  @ToArray()
  @IsArray()
  @ArrayMaxSize(EVENT_STATUSES.length)
  @IsIn(EVENT_STATUSES, { each: true, message: `filter[status] may contain only: ${EVENT_STATUSES.join(', ')}` })
  status?: EventStatus[];
}

export class ListQuestEventsQueryDto {
  /** Page number, starting at 1 (default 1). */
  @ApiPropertyOptional()
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page?: number;

  /** Items per page (default 20, at most 100). */
  @ApiPropertyOptional()
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  /**
   * `true`: only events the caller is REGISTERED in. `false` negates: only events the caller is
   * not registered in. Absent: both. Send nothing, not `false`, for no filter.
   */
  @ApiPropertyOptional()
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  participating?: boolean;

  /**
   * `true`: only events whose registration is open now. `false` negates: only events whose
   * registration is not open now. Absent: both. Combines with `participating` (both must hold).
   */
  @ApiPropertyOptional()
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  registrationOpen?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @ValidateNested()
  @Type(() => QuestEventFilterDto)
  filter?: QuestEventFilterDto;

  /** Events with a reward that grants this inventory item. */
  @IsOptional()
  @IsUuid()
  itemId?: string;

  /** Events scored with, or rewarding, this resource type. */
  @IsOptional()
  @IsUuid()
  resourceId?: string;
}

/** The management list of events: drafts included, optionally of one community and one status. */
export class AdminQuestEventsQueryDto extends PageQueryDto {
  /** The community (id or slug). */
  @ApiPropertyOptional({ example: 'pixel-pirates' })
  @OptionalText({ max: 64 })
  communityId?: string;

  /** Events in this status only (drafts included); absent: every status. */
  @ApiPropertyOptional({ enum: EVENT_STATUSES, example: 'active' })
  @IsOptional()
  @IsIn(EVENT_STATUSES, { message: `status must be one of: ${EVENT_STATUSES.join(', ')}` })
  status?: EventStatus;
}

export class CloseQuestEventResultDto {
  @ApiProperty({ type: () => QuestEventDto })
  event: QuestEventDto;

  /** true when this call completed the event (claimed its completion); false when another call or the worker had (nothing changed). */
  @ApiProperty({ example: true })
  completedNow: boolean;

  /** Allocations created by this call (all of them when `event.status` is `completed`; those made before the answer otherwise, the worker making the rest). */
  @ApiProperty({ example: 12 })
  allocationsCreated: number;
}
