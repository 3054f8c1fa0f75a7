import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ToInteger } from '../../common/validation/transforms.js';
import { IsUuid } from '../../common/validation/decorators.js';
import { PageQueryDto } from '../../common/pagination/pagination.js';
import { LeaderboardEntryDto } from '../../resources/dto/ranking.dto.js';
import { EVENT_STATUSES, type EventStatus } from '../../quest-events/event-status.js';
import { ParticipantStatus } from '../participant-status.js';

const STATUS_DOC = 'ParticipantStatus: 1 REGISTERED, 2 UNREGISTERED, 3 DROPPED, 4 CANCELLED.';

export class ParticipantDto {
  @ApiProperty({ format: 'uuid', example: '9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b' })
  eventId: string;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ enum: [1, 2, 3, 4], example: ParticipantStatus.REGISTERED, description: STATUS_DOC })
  status: ParticipantStatus;

  @ApiProperty({ enum: ['REGISTERED', 'UNREGISTERED', 'DROPPED', 'CANCELLED'], example: 'REGISTERED' })
  statusName: string;

  /** The score (earned scoped resource) as of `scoreSyncedAt`. */
  @ApiProperty({ example: 420 })
  score: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2025-06-12T12:00:00.000Z' })
  scoreSyncedAt: Date | null;

  @ApiProperty({ format: 'date-time', example: '2025-06-12T12:00:00.000Z' })
  registeredAt: Date;

  @ApiProperty({ format: 'date-time', example: '2025-06-12T12:00:00.000Z' })
  statusChangedAt: Date;

  @ApiProperty({ type: String, nullable: true, example: null })
  dropReason: string | null;
}

export class ParticipantListItemDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ example: 'grace_hopper' })
  handle: string;

  @ApiProperty({ type: String, nullable: true, example: 'Grace' })
  displayName: string | null;

  @ApiProperty({ example: 420 })
  score: number;

  @ApiProperty({ format: 'date-time', example: '2025-06-12T12:00:00.000Z' })
  registeredAt: Date;
}

export class ParticipantRankDto {
  @ApiProperty({ format: 'uuid', example: '9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b' })
  eventId: string;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ enum: [1, 2, 3, 4], example: 1, description: STATUS_DOC })
  status: ParticipantStatus;

  /** Equal scores share a rank; null when not REGISTERED or the score is 0. Once the event is completed: the rank in its final standings (the one its tickets were allocated by). */
  @ApiProperty({ type: Number, nullable: true, example: 3 })
  rank: number | null;

  /** The live score (earned scoped resource); once the event is completed, the final score. */
  @ApiProperty({ example: 420 })
  score: number;

  /** REGISTERED participants with a score > 0. */
  @ApiProperty({ example: 37 })
  totalRanked: number;

  @ApiProperty({ type: LeaderboardEntryDto, isArray: true })
  above: LeaderboardEntryDto[];

  @ApiProperty({ type: LeaderboardEntryDto, isArray: true })
  below: LeaderboardEntryDto[];
}

export class DropParticipantDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  @IsUuid()
  userId: string;

  /** Why (disqualification, unmet entry requirement...). */
  @ApiPropertyOptional({ maxLength: 500, example: 'Unmet entry requirement' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

export class AdminParticipantsQueryDto extends PageQueryDto {
  /** Only participants in this status (1 REGISTERED, 2 UNREGISTERED, 3 DROPPED, 4 CANCELLED); all by default. */
  @ApiPropertyOptional({ enum: [1, 2, 3, 4], type: Number })
  @IsOptional()
  @ToInteger()
  @IsIn([1, 2, 3, 4], { message: 'status must be 1, 2, 3 or 4' })
  status?: ParticipantStatus;
}

/** A participant in any status, with who it is (management). */
export class AdminParticipantDto extends ParticipantListItemDto {
  @ApiProperty({ enum: [1, 2, 3, 4], example: 1, description: STATUS_DOC })
  status: ParticipantStatus;

  @ApiProperty({ enum: ['REGISTERED', 'UNREGISTERED', 'DROPPED', 'CANCELLED'], example: 'REGISTERED' })
  statusName: string;

  @ApiProperty({ format: 'date-time', example: '2025-06-12T12:00:00.000Z' })
  statusChangedAt: Date;

  @ApiProperty({ type: String, nullable: true, example: null })
  dropReason: string | null;
}

/** A participation of one player, with its event (management). */
export class AdminUserParticipationDto {
  @ApiProperty({ format: 'uuid', example: '9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b' })
  eventId: string;

  @ApiProperty({ example: 'spring-cup' })
  eventSlug: string;

  @ApiProperty({ example: 'Spring Cup' })
  eventName: string;

  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  /** The event's lifecycle status now. */
  @ApiProperty({ enum: EVENT_STATUSES, example: 'active' })
  eventStatus: EventStatus;

  @ApiProperty({ enum: [1, 2, 3, 4], example: 1, description: STATUS_DOC })
  status: ParticipantStatus;

  @ApiProperty({ enum: ['REGISTERED', 'UNREGISTERED', 'DROPPED', 'CANCELLED'], example: 'REGISTERED' })
  statusName: string;

  /** The score as last synced. */
  @ApiProperty({ example: 420 })
  score: number;

  @ApiProperty({ format: 'date-time', example: '2025-06-12T12:00:00.000Z' })
  registeredAt: Date;

  @ApiProperty({ format: 'date-time', example: '2025-06-12T12:00:00.000Z' })
  statusChangedAt: Date;

  @ApiProperty({ type: String, nullable: true, example: null })
  dropReason: string | null;
}
