import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ToInteger } from '../../common/validation/transforms.js';
import { PageQueryDto } from '../../common/pagination/pagination.js';
import { IsUuid, NotBlank, OptionalText, RequiredText } from '../../common/validation/decorators.js';

/** Largest single grant or deduction. */
export const MAX_OPERATION_AMOUNT = 1_000_000_000_000;

export class GrantResourceDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  @IsUuid()
  userId: string;

  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  @IsUuid()
  resourceTypeId: string;

  /** A positive integer, at most 10^12. */
  @ApiProperty({ minimum: 1, maximum: MAX_OPERATION_AMOUNT, example: 100 })
  @IsInt()
  @Min(1)
  @Max(MAX_OPERATION_AMOUNT)
  amount: number;

  @ApiProperty({ example: 'match_won' })
  @RequiredText({ max: 64 })
  @NotBlank({ description: 'Why, e.g. `match_won`. Stored in the ledger.' })
  reason: string;

  /** Unique per tenant: a retried call with the same key changes nothing and returns the first result. */
  @ApiProperty({ example: 'match-8812-winner' })
  @RequiredText({ max: 128 })
  idempotencyKey: string;

  /** What it refers to, e.g. a match id. */
  @OptionalText({ max: 200 })
  reference?: string;
}

export class DeductResourceDto extends GrantResourceDto {
  /** false (default): lowers the spendable balance only (rank kept). true: lowers the earned total (rank) too. */
  @IsOptional()
  @IsBoolean()
  lowerEarned?: boolean;
}

export class LedgerResultDto {
  @ApiProperty({ format: 'uuid', example: '9d7e1c53-0a41-4f6c-8f8f-2d1c6c3f7b11' })
  entryId: string;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  resourceTypeId: string;

  /** Change of the spendable balance. */
  @ApiProperty({ example: 100 })
  delta: number;

  /** Change of the earned total (what the leaderboard ranks). */
  @ApiProperty({ example: 100 })
  earnedDelta: number;

  /** Spendable balance after the operation (for a replay: the current one). */
  @ApiProperty({ example: 350 })
  balance: number;

  /** Earned total after the operation (for a replay: the current one). */
  @ApiProperty({ example: 500 })
  earned: number;

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  createdAt: Date;

  /** true when the idempotency key had already been used: nothing was changed. */
  @ApiProperty({ example: false })
  replayed: boolean;
}

export class BalanceDto {
  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  resourceTypeId: string;

  @ApiProperty({ example: 'xp' })
  slug: string;

  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  @ApiProperty({ example: 350 })
  balance: number;

  @ApiProperty({ example: 500 })
  earned: number;
}

export class BalancesQueryDto {
  /** The player whose balances to show. */
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  userId: string;
}

export class LedgerQueryDto extends PageQueryDto {
  /** The player whose ledger entries to show. */
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  userId: string;

  /** Entries of this resource type only; absent: of every type. */
  @IsOptional()
  @IsUuid()
  resourceTypeId?: string;
}

export class LedgerEntryDto {
  @ApiProperty({ format: 'uuid', example: '9d7e1c53-0a41-4f6c-8f8f-2d1c6c3f7b11' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  resourceTypeId: string;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ example: -50 })
  delta: number;

  @ApiProperty({ example: 0 })
  earnedDelta: number;

  @ApiProperty({ example: 'purchase' })
  reason: string;

  @ApiProperty({ type: String, nullable: true, example: 'order-1234' })
  reference: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'order-1234-pay' })
  idempotencyKey: string | null;

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  createdAt: Date;
}

export class NeighboursQueryDto {
  /** Neighbours shown on each side of the user (default 2, at most 10). */
  @ApiProperty({ required: false, minimum: 0, maximum: 10, default: 2, type: Number })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(0)
  @Max(10)
  neighbours?: number;
}
