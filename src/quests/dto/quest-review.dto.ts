import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';
import { MAX_PAGE, MAX_PAGE_SIZE } from '../../common/pagination/pagination.js';
import { ToInteger } from '../../common/validation/transforms.js';
import { IsUuid, RequiredText } from '../../common/validation/decorators.js';

export class SubmissionQueryDto {
  /** `pending` (default): the review queue; `done` or `rejected`: decided ones. */
  @ApiPropertyOptional({ enum: ['pending', 'done', 'rejected'] })
  @IsOptional()
  @IsIn(['pending', 'done', 'rejected'])
  state?: 'pending' | 'done' | 'rejected';

  /** One community's submissions (its id). */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuid()
  communityId?: string;

  /** One quest's submissions. */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuid()
  questId?: string;

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

export class SubmissionDto {
  @ApiProperty({ format: 'uuid', example: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '6c1f3e0a-2b7e-4a55-9a0c-2f9d1a4e5b11' })
  questId: string;

  @ApiProperty({ example: 'Share the launch' })
  questName: string;

  @ApiProperty({ format: 'uuid', example: '2f1e7c3a-8b4d-4c6e-9f0a-1b2c3d4e5f60' })
  communityId: string;

  @ApiProperty({ format: 'uuid', example: '5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d' })
  taskId: string;

  @ApiProperty({ example: 'Link your tweet' })
  taskTitle: string;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ example: 'alice' })
  handle: string;

  @ApiProperty({ example: '2026-12-02' })
  periodKey: string;

  @ApiProperty({ enum: ['pending', 'done', 'rejected'], example: 'pending' })
  state: string;

  @ApiProperty({ example: 'https://x.com/alice/status/1864000000000000000' })
  content: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  reviewReason: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Who decided (`api-key:<prefix>`).' })
  reviewedBy: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  reviewedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-12-02T10:00:00.000Z' })
  submittedAt: string;
}

export class ReviewSubmissionDto {
  /** true: the task is done for the player; false: rejected (they may submit again). */
  @ApiProperty({ example: true })
  @IsBoolean()
  approve: boolean;

  /** What the player reads; required to reject. */
  @ApiPropertyOptional({ example: 'The link does not open a post about the launch', maxLength: 500 })
  @ValidateIf((o: ReviewSubmissionDto) => o.approve === false || o.reason !== undefined)
  @RequiredText({ max: 500 })
  reason?: string;
}

export class ReviewResultDto {
  @ApiProperty({ format: 'uuid', example: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d' })
  id: string;

  @ApiProperty({ enum: ['done', 'rejected'], example: 'done' })
  state: string;

  /** Whether the approval completed the quest for the player (every task of that period done). */
  @ApiProperty({ example: true })
  questCompleted: boolean;
}

/** A community's credential for a platform its social tasks check. */
export class PlatformCredentialDto {
  /** Discord: the bot token (the bot must be in the guilds the tasks name); X: an app bearer token. Stored encrypted, never shown. */
  @ApiProperty({ example: 'MTA4...bot-token', writeOnly: true })
  @RequiredText({ max: 512 })
  token: string;
}
