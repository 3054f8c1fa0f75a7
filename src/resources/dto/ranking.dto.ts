import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/pagination.js';
import { NeighboursQueryDto } from './ledger.dto.js';

export const SEASON_REF = /^(current|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
export const SEASON_DOC = {
  description:
    'Extension: `current` (the running season of this resource that ends first) or a season id. Absent: the all-time board, as before. A live season ranks what was earned inside its window (equal amounts share a rank); a closed one shows its frozen final standings, where `rank` is the final place (ties went to who reached the score first).',
  example: 'current',
};

/** `?season=` of the ranking routes (extension). */
export class LeaderboardQueryDto extends PageQueryDto {
  @ApiPropertyOptional(SEASON_DOC)
  @IsOptional()
  @Matches(SEASON_REF, { message: 'season must be "current" or a season id' })
  season?: string;
}

export class RankingQueryDto extends NeighboursQueryDto {
  @ApiPropertyOptional(SEASON_DOC)
  @IsOptional()
  @Matches(SEASON_REF, { message: 'season must be "current" or a season id' })
  season?: string;
}

/** One line of a leaderboard. */
export class LeaderboardEntryDto {
  /** Equal amounts share a rank (1, 2, 2, 4). */
  @ApiProperty({ example: 1 })
  rank: number;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ example: 'grace_hopper' })
  handle: string;

  @ApiProperty({ type: String, nullable: true, example: 'Grace' })
  displayName: string | null;

  /** Earned total of the resource (spending in the store does not lower it). */
  @ApiProperty({ example: 1500 })
  amount: number;
}

export class RankingDto {
  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  resourceTypeId: string;

  @ApiProperty({ example: 'xp' })
  slug: string;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  /** null while the user has earned none of this resource (unranked). */
  @ApiProperty({ type: Number, nullable: true, example: 42 })
  rank: number | null;

  /** Earned total (what is ranked). */
  @ApiProperty({ example: 1500 })
  amount: number;

  /** Spendable balance (the earned total minus what was spent). */
  @ApiProperty({ example: 900 })
  balance: number;

  /** Number of ranked users (earned > 0). */
  @ApiProperty({ example: 1280 })
  totalRanked: number;

  /** The users just above, in leaderboard order (nearest last). */
  @ApiProperty({ type: LeaderboardEntryDto, isArray: true })
  above: LeaderboardEntryDto[];

  /** The users just below, in leaderboard order (nearest first). */
  @ApiProperty({ type: LeaderboardEntryDto, isArray: true })
  below: LeaderboardEntryDto[];
}
