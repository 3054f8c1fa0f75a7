import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { PageQueryDto } from '../../common/pagination/pagination.js';
import { ToBoolean } from '../../common/validation/transforms.js';
import {
  DateStringInRange,
  IfPresent,
  IsUuid,
  NotBlank,
  OptionalInt,
  OptionalText,
  OptionalUrl,
  OptionalUuids,
  RequiredText,
} from '../../common/validation/decorators.js';
import { LISTING_KINDS, type ListingKind } from '../entities/store-listing.entity.js';
import { UserRequirementDto } from '../../requirements/dto/requirement.dto.js';

export const MAX_PRICE_AMOUNT = 1_000_000_000_000;

export class PriceComponentDto {
  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  @IsUuid()
  resourceTypeId: string;

  @ApiProperty({ minimum: 1, maximum: MAX_PRICE_AMOUNT, example: 250 })
  @IsInt()
  @Min(1)
  @Max(MAX_PRICE_AMOUNT)
  amount: number;
}

export class CreateListingDto {
  /** One or more resource amounts (distinct resource types of the listing's community). */
  @ApiProperty({ type: PriceComponentDto, isArray: true })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => PriceComponentDto)
  price: PriceComponentDto[];

  /** Community id or slug. */
  @ApiProperty({ example: 'my-community' })
  @RequiredText({ max: 64 })
  communityId: string;

  @ApiProperty({ example: 'Golden sword' })
  @RequiredText({ max: 200 })
  @NotBlank()
  name: string;

  /** What a purchase grants: an inventory `item`, a `prize`, or a `resource`. */
  @ApiProperty({ enum: LISTING_KINDS, example: 'item' })
  @IsIn(LISTING_KINDS)
  kind: ListingKind;

  /** `item` listings: an item of the same community. */
  @IfPresent()
  @IsUuid()
  itemId?: string;

  /** `prize` listings: a prize of the tenant (tenant-wide or of the same community). */
  @IfPresent()
  @IsUuid()
  prizeId?: string;

  /** `resource` listings: a global resource type of the same community (a scoped type, a quest event's score, is not for sale). */
  @IfPresent()
  @IsUuid()
  resourceTypeId?: string;

  /** Units granted per purchase (default 1). */
  @OptionalInt({ min: 1, max: 1_000_000 })
  quantity?: number;

  @OptionalText({ max: 5000 })
  description?: string;

  @OptionalUrl({ nullable: true })
  imageUrl?: string;

  /** Purchases available in total; absent for unlimited. */
  @OptionalInt({ min: 0, max: 1_000_000_000, nullable: true })
  totalSupply?: number;

  /** Purchases allowed per user; absent for unlimited. */
  @OptionalInt({ min: 1, max: 1_000_000, nullable: true })
  perUserLimit?: number;

  /** On sale from (ISO 8601); absent: already. */
  @ApiPropertyOptional()
  @IsOptional()
  @IsISO8601({ strict: true })
  @DateStringInRange()
  startsAt?: string;

  /** On sale until, exclusive (ISO 8601); absent: no end. */
  @ApiPropertyOptional()
  @IsOptional()
  @IsISO8601({ strict: true })
  @DateStringInRange()
  endsAt?: string;

  /** Requirement definitions (ids) the buyer must satisfy. */
  @OptionalUuids({ max: 20 })
  requirementIds?: string[];

  /** false hides the listing. Default true. */
  @IfPresent()
  @IsBoolean()
  active?: boolean;

  /** Sort order in the store (ascending). */
  @IfPresent()
  @IsInt()
  @Min(-1_000_000)
  @Max(1_000_000)
  position?: number;
}

/** What is sold and the community are fixed; everything else may change (purchases keep the price they paid). */
export class UpdateListingDto {
  @ApiProperty({ type: String, nullable: true, required: false })
  @OptionalUrl({ nullable: true })
  imageUrl?: string | null;

  @ApiProperty({ type: PriceComponentDto, isArray: true, required: false })
  @IfPresent()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => PriceComponentDto)
  price?: PriceComponentDto[];

  /** null: unlimited. Cannot go below the number sold. */
  @ApiProperty({ type: Number, nullable: true, required: false })
  @OptionalInt({ min: 0, max: 1_000_000_000, nullable: true })
  totalSupply?: number | null;

  @ApiProperty({ type: Number, nullable: true, required: false })
  @OptionalInt({ min: 1, max: 1_000_000, nullable: true })
  perUserLimit?: number | null;

  @ApiProperty({ type: String, nullable: true, required: false })
  @IsOptional()
  @IsISO8601({ strict: true })
  @DateStringInRange()
  startsAt?: string | null;

  @ApiProperty({ type: String, nullable: true, required: false })
  @IsOptional()
  @IsISO8601({ strict: true })
  @DateStringInRange()
  endsAt?: string | null;

  @OptionalText({ min: 1, max: 200 })
  @NotBlank()
  name?: string;

  @OptionalText({ max: 5000 })
  description?: string;

  @OptionalUuids({ max: 20 })
  requirementIds?: string[];

  @IfPresent()
  @IsBoolean()
  active?: boolean;

  @IfPresent()
  @IsInt()
  @Min(-1_000_000)
  @Max(1_000_000)
  position?: number;
}

export class ListingDto {
  @ApiProperty({ format: 'uuid', example: '1c9a3c56-8f0b-4b1e-9c0e-5d6f7a8b9c01' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  @ApiProperty({ example: 'Golden sword' })
  name: string;

  @ApiProperty({ example: 'A shiny sword.' })
  description: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  imageUrl: string | null;

  @ApiProperty({ enum: LISTING_KINDS, example: 'item' })
  kind: ListingKind;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: '7d0c1b3e-2f4a-4b5c-8d6e-9f0a1b2c3d4e' })
  itemId: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  prizeId: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  resourceTypeId: string | null;

  /** Units granted per purchase. */
  @ApiProperty({ example: 1 })
  quantity: number;

  @ApiProperty({ type: PriceComponentDto, isArray: true })
  price: PriceComponentDto[];

  /** null: unlimited. */
  @ApiProperty({ type: Number, nullable: true, example: 100 })
  totalSupply: number | null;

  /** Purchases left (null: unlimited). totalSupply = remainingSupply + sold. */
  @ApiProperty({ type: Number, nullable: true, example: 58 })
  remainingSupply: number | null;

  @ApiProperty({ example: 42 })
  sold: number;

  @ApiProperty({ type: Number, nullable: true, example: 2 })
  perUserLimit: number | null;

  @ApiProperty({ type: Date, nullable: true, example: null })
  startsAt: Date | null;

  @ApiProperty({ type: Date, nullable: true, example: null })
  endsAt: Date | null;

  @ApiProperty({ type: String, isArray: true, example: ['6a8e1d1e-7a55-4a8a-9b43-3d2f0b9b1e11'] })
  requirementIds: string[];

  @ApiProperty({ example: true })
  active: boolean;

  @ApiProperty({ example: 0 })
  position: number;

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  createdAt: Date;

  /** `enrichRequirements=true` only: the requirement definitions with the user's saved data. */
  @ApiProperty({ type: UserRequirementDto, isArray: true, required: false })
  requirements?: UserRequirementDto[];

  /** `enrichRequirements=true` only: how many times the user bought this listing. */
  @ApiProperty({ required: false, example: 1 })
  purchasedCount?: number;

  /** `enrichRequirements=true` only: whether the user can buy it now (given saved or new data for data requirements). */
  @ApiProperty({ required: false, example: false })
  canBuy?: boolean;

  /**
   * `enrichRequirements=true` only: why not, any of `not_started`, `ended`, `sold_out` (the
   * listing's supply, or what is left of its item's or prize's own supply, is short of one
   * purchase), `limit_reached`, `insufficient_balance`, `requirement_not_met:<requirementId>`.
   */
  @ApiProperty({ type: String, isArray: true, required: false, example: ['insufficient_balance'] })
  unavailableReasons?: string[];
}

export class ContainerQueryDto {
  /** Community id or slug. */
  @ApiProperty({ example: 'my-community' })
  @RequiredText({ max: 64 })
  containerId: string;
}

export class ListingsQueryDto extends PageQueryDto {
  /** Community id or slug. */
  @ApiProperty({ example: 'my-community' })
  @RequiredText({ max: 64 })
  containerId: string;

  /** true: each listing carries its requirements with the user's saved data, and whether the user can buy it now. */
  @ApiProperty({ type: Boolean, example: true })
  @ToBoolean()
  @IsBoolean()
  enrichRequirements: boolean;
}

export class AdminListingsQueryDto extends PageQueryDto {
  /** Community id or slug; absent: every community. */
  @OptionalText({ min: 1, max: 64 })
  containerId?: string;
}

export class BalanceItemDto {
  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  resourceTypeId: string;

  @ApiProperty({ example: 'xp' })
  slug: string;

  @ApiProperty({ example: 'Experience' })
  name: string;

  @ApiProperty({ example: 'global' })
  kind: string;

  /** Spendable amount (what the store debits). */
  @ApiProperty({ example: 350 })
  balance: number;
}

export class StoreBalanceDto {
  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  /** Every resource type of the community (global first, then by slug), 0 when never credited. */
  @ApiProperty({ type: BalanceItemDto, isArray: true })
  resources: BalanceItemDto[];
}
