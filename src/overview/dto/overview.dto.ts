import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional } from 'class-validator';

export class OverviewQueryDto {
  /**
   * The start of the period counted, an ISO 8601 instant (the console sends the operator's local
   * midnight). Default: 24 hours ago. At most 31 days back.
   */
  @ApiPropertyOptional({ example: '2026-12-01T23:00:00.000Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 instant, e.g. 2026-12-01T23:00:00Z' })
  since?: string;
}

export class OverviewDto {
  @ApiProperty({ example: '2026-12-01T23:00:00.000Z' })
  since: string;

  /** Sessions started since (logins and registrations of every kind). */
  @ApiProperty({ example: 42 })
  logins: number;

  /** Players who registered since. */
  @ApiProperty({ example: 7 })
  newPlayers: number;

  /** Grants of resources by the management API since (`POST /v1/admin/resources/grants` answered 2xx, replays included). */
  @ApiProperty({ example: 12 })
  grants: number;

  /** Store purchases since. */
  @ApiProperty({ example: 5 })
  purchases: number;

  /** Quest completions since. */
  @ApiProperty({ example: 31 })
  questCompletions: number;

  /** Quest task submissions waiting for a review (now, whenever submitted). */
  @ApiProperty({ example: 2 })
  pendingReviews: number;
}
