import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { ToBoolean } from '../../common/validation/transforms.js';
import { PageQueryDto } from '../../common/pagination/pagination.js';
import {
  IsUuid,
  NotBlank,
  OptionalInt,
  OptionalText,
  OptionalUrl,
  OptionalUuids,
  RequiredText,
} from '../../common/validation/decorators.js';
import { PRIZE_SOURCES, type PrizeSource } from '../entities/prize-award.entity.js';
import { PRIZE_KINDS, type PrizeKind } from '../entities/prize.entity.js';

export class CreatePrizeDto {
  @ApiProperty({ example: 'Season 1 champion' })
  @RequiredText({ max: 200 })
  @NotBlank()
  name: string;

  @ApiProperty({ enum: PRIZE_KINDS, example: 'physical' })
  @IsIn(PRIZE_KINDS)
  kind: PrizeKind;

  /** A community of the tenant (id or slug); absent for a tenant-wide prize. */
  @OptionalText({ min: 1, max: 64 })
  communityId?: string;

  @OptionalText({ max: 5000 })
  description?: string;

  @OptionalUrl({ nullable: true })
  imageUrl?: string;

  /** Units that can ever be awarded; absent for unlimited. */
  @OptionalInt({ min: 0, max: 1_000_000_000, nullable: true })
  totalSupply?: number;

  /** Requirement definitions (ids) a winner is asked for, e.g. a shipping address. */
  @OptionalUuids({ max: 20 })
  requirementIds?: string[];
}

export class UpdatePrizeDto {
  @ApiProperty({ type: String, nullable: true, required: false })
  @OptionalUrl({ nullable: true })
  imageUrl?: string | null;

  /** null: unlimited. Cannot go below the number awarded (409). */
  @ApiProperty({ type: Number, nullable: true, required: false })
  @OptionalInt({ min: 0, max: 1_000_000_000, nullable: true })
  totalSupply?: number | null;

  @OptionalText({ min: 1, max: 200 })
  @NotBlank()
  name?: string;

  @OptionalText({ max: 5000 })
  description?: string;

  @OptionalUuids({ max: 20 })
  requirementIds?: string[];
}

export class PrizeDto {
  @ApiProperty({ format: 'uuid', example: '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968' })
  id: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  communityId: string | null;

  @ApiProperty({ example: 'Season 1 champion' })
  name: string;

  @ApiProperty({ example: 'A signed jersey.' })
  description: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  imageUrl: string | null;

  @ApiProperty({ enum: PRIZE_KINDS, example: 'physical' })
  kind: PrizeKind;

  /** null: unlimited. */
  @ApiProperty({ type: Number, nullable: true, example: 10 })
  totalSupply: number | null;

  /** Units awarded so far. totalSupply = remainingSupply + awarded. */
  @ApiProperty({ example: 3 })
  awarded: number;

  @ApiProperty({ type: Number, nullable: true, example: 7 })
  remainingSupply: number | null;

  @ApiProperty({ type: String, isArray: true, example: [] })
  requirementIds: string[];

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  createdAt: Date;
}

export class UserPrizeDto extends PrizeDto {
  /** Units the current user owns (0: not owned). */
  @ApiProperty({ example: 1 })
  ownedQuantity: number;
}

export class PrizeOwnerDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ example: 'alice' })
  handle: string;

  @ApiProperty({ example: 1 })
  quantity: number;

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  firstAwardedAt: Date;
}

export class PrizeDetailDto extends UserPrizeDto {
  @ApiProperty({ example: 3 })
  ownerCount: number;

  /** The first owners (at most 50, earliest first); the management API pages through all of them. */
  @ApiProperty({ type: PrizeOwnerDto, isArray: true })
  owners: PrizeOwnerDto[];
}

export class PrizeSupplyDto {
  @ApiProperty({ format: 'uuid', example: '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968' })
  prizeId: string;

  @ApiProperty({ type: Number, nullable: true, example: 10 })
  totalSupply: number | null;

  @ApiProperty({ example: 3 })
  awarded: number;

  @ApiProperty({ type: Number, nullable: true, example: 7 })
  remainingSupply: number | null;
}

/** `ownedOnly` as the interface gives it: a string, `true` or `false`. */
export class PrizesQueryDto extends PageQueryDto {
  /** `true`: only prizes the user owns; `false`: every prize of the tenant, with the user's quantity. `true` or `false` in any case, or `1`/`0`. */
  @ApiProperty({ type: String, enum: ['true', 'false'], example: 'false' })
  @ToBoolean()
  @IsBoolean({ message: 'ownedOnly must be true or false' })
  ownedOnly: boolean;
}

export class AwardPrizeDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  @IsUuid()
  userId: string;

  /** `admin` (default) or `event` (an event reward given through the management API). */
  @ApiProperty({ enum: ['admin', 'event'], required: false, example: 'admin' })
  @IsOptional()
  @IsIn(['admin', 'event'])
  source?: 'admin' | 'event';

  @ApiProperty({ example: 'tournament_winner' })
  @RequiredText({ max: 64 })
  @NotBlank()
  reason: string;

  /** Unique per tenant: a retry with the same key awards nothing and returns the first award. */
  @ApiProperty({ example: 'tournament-12-winner' })
  @RequiredText({ max: 128 })
  idempotencyKey: string;

  /** Units to award (default 1). */
  @OptionalInt({ min: 1, max: 1_000_000 })
  quantity?: number;

  @OptionalText({ max: 200 })
  reference?: string;
}

export class PrizeAwardResultDto {
  @ApiProperty({ format: 'uuid', example: '4f3e2d1c-0b9a-4876-9543-210fedcba987' })
  awardId: string;

  @ApiProperty({ format: 'uuid', example: '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968' })
  prizeId: string;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ example: 1 })
  quantity: number;

  @ApiProperty({ enum: PRIZE_SOURCES, example: 'admin' })
  source: PrizeSource;

  /** Units of the prize the user owns now. */
  @ApiProperty({ example: 1 })
  ownedQuantity: number;

  @ApiProperty({ type: Number, nullable: true, example: 6 })
  remainingSupply: number | null;

  /** true: the idempotency key had been used; nothing was awarded now. */
  @ApiProperty({ example: false })
  replayed: boolean;

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  createdAt: Date;
}
