import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { ToInteger } from '../../common/validation/transforms.js';
import { PageQueryDto } from '../../common/pagination/pagination.js';
import { IsUuid, OptionalInt, RequiredText } from '../../common/validation/decorators.js';
import { NeighboursQueryDto } from './ledger.dto.js';
import { SEASON_DOC, SEASON_REF } from './ranking.dto.js';

/** `communityId` of the management lists of a community's resources. */
export class AdminResourceTypesQueryDto extends PageQueryDto {
  /** The community (id or slug). */
  @ApiProperty({ example: 'pixel-pirates' })
  @RequiredText({ max: 64 })
  communityId: string;
}

export class AdminLeaderboardQueryDto extends AdminResourceTypesQueryDto {
  /** The resource type (slug or id) of the community. */
  @ApiProperty({ example: 'xp' })
  @RequiredText({ max: 64 })
  resourceType: string;

  @ApiPropertyOptional(SEASON_DOC)
  @IsOptional()
  @Matches(SEASON_REF, { message: 'season must be "current" or a season id' })
  season?: string;
}

export const MAX_ACTIVITY_DAYS = 366;

/** The window of a community's earnings per day. */
export class AdminEarnedPerDayQueryDto {
  /** The community (id or slug). */
  @ApiProperty({ example: 'pixel-pirates' })
  @RequiredText({ max: 64 })
  communityId: string;

  /** The resource type (slug or id) of the community. */
  @ApiProperty({ example: 'xp' })
  @RequiredText({ max: 64 })
  resourceType: string;

  /** How many days, today (UTC) included. */
  @ApiPropertyOptional({ default: 30, example: 30 })
  @ToInteger()
  @OptionalInt({ min: 1, max: MAX_ACTIVITY_DAYS })
  days?: number;
}

export class EarnedOnDayDto {
  /** The UTC day. */
  @ApiProperty({ example: '2026-11-24', format: 'date' })
  day: string;

  /** What was earned that day (grants, quest rewards...: the positive changes of the earned total). */
  @ApiProperty({ example: 4200 })
  earned: number;

  /** How many players earned some. */
  @ApiProperty({ example: 17 })
  players: number;
}

export class EarnedPerDayDto {
  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  resourceTypeId: string;

  @ApiProperty({ example: 'xp' })
  slug: string;

  /** Every day of the window, the oldest first (days without earnings included, at 0). */
  @ApiProperty({ type: [EarnedOnDayDto] })
  days: EarnedOnDayDto[];
}

export class AdminRankingQueryDto extends NeighboursQueryDto {
  /** The community (id or slug). */
  @ApiProperty({ example: 'pixel-pirates' })
  @RequiredText({ max: 64 })
  communityId: string;

  /** The resource type (slug or id) of the community. */
  @ApiProperty({ example: 'xp' })
  @RequiredText({ max: 64 })
  resourceType: string;

  /** The player whose place to show, with their neighbours. */
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  userId: string;
}
