import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsObject, IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import { IsUuid } from '../../common/validation/decorators.js';
import { PageQueryDto } from '../../common/pagination/pagination.js';
import { LISTING_KINDS, type ListingKind } from '../entities/store-listing.entity.js';
import { PriceComponentDto } from './listing.dto.js';

export class RequirementDataItemDto {
  @ApiProperty({ example: '6a8e1d1e-7a55-4a8a-9b43-3d2f0b9b1e11' })
  @IsString()
  @Length(1, 64)
  requirementId: string;

  /** Keep this data for the next purchases (offered back by `enrichRequirements`). Default false. */
  @ApiProperty({ required: false, example: true })
  @IsOptional()
  @IsBoolean()
  shouldSave?: boolean;

  /** Must match the requirement's JSON schema (at most 4 KB). */
  @ApiProperty({ type: 'object', additionalProperties: true, example: { addressLine1: '1 Main St', city: 'Lyon', country: 'FR' } })
  @IsObject()
  data: Record<string, unknown>;
}

export class PurchaseBodyDto {
  /** One-use id chosen by the client (idempotency key per user): a retry with the same nonce and request returns the first purchase and charges nothing. */
  @ApiProperty({ example: '5f1d7c1c-4b7e-4d43-a3a4-2f6f0f9c0b7e' })
  @IsString()
  @Length(1, 128)
  nonce: string;

  /** Data for the listing's `data` requirements (a requirement with saved data may be left out: the saved data is used). */
  @ApiProperty({ type: RequirementDataItemDto, isArray: true, required: false })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => RequirementDataItemDto)
  requirementData?: RequirementDataItemDto[];

  /**
   * Extension: the price the player agreed to (the listing's `price` as shown). When the listing's
   * price is another now, the purchase is 409 `price_changed` and nothing is charged; absent, the
   * current price is charged. Not part of what a nonce's replay compares.
   */
  @ApiProperty({ type: PriceComponentDto, isArray: true, required: false, maxItems: 10 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => PriceComponentDto)
  expectedPrice?: PriceComponentDto[];
}

export class PurchaseOptionsQueryDto {
  /** Extension: the community (id or slug) the client believes the listing is in; another community's listing is then 404. */
  @IsOptional()
  @IsString()
  @Length(1, 64)
  containerId?: string;
}

export class PurchasesQueryDto extends PageQueryDto {
  /** Community id or slug. */
  @ApiProperty({ example: 'my-community' })
  @IsString()
  @Length(1, 64)
  containerId: string;
}

export class PurchaseDto {
  @ApiProperty({ format: 'uuid', example: '2d3e4f50-6172-4839-a4b5-c6d7e8f90a1b' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '1c9a3c56-8f0b-4b1e-9c0e-5d6f7a8b9c01' })
  listingId: string;

  @ApiProperty({ example: 'Golden sword' })
  listingName: string;

  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  @ApiProperty({ example: '5f1d7c1c-4b7e-4d43-a3a4-2f6f0f9c0b7e' })
  nonce: string;

  @ApiProperty({ enum: LISTING_KINDS, example: 'item' })
  kind: ListingKind;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: '7d0c1b3e-2f4a-4b5c-8d6e-9f0a1b2c3d4e' })
  itemId: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  prizeId: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  resourceTypeId: string | null;

  @ApiProperty({ example: 1 })
  quantity: number;

  /** What was paid. */
  @ApiProperty({ type: PriceComponentDto, isArray: true })
  price: PriceComponentDto[];

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  createdAt: Date;
}

export class PurchaseResultDto extends PurchaseDto {
  /** true: this nonce had already bought with the same request; this is that purchase and nothing was charged now. */
  @ApiProperty({ example: false })
  replayed: boolean;
}

export class AdminPurchasesQueryDto extends PageQueryDto {
  /** Purchases of this listing only. */
  @IsOptional()
  @IsUuid()
  listingId?: string;

  /** Purchases by this player only. */
  @IsOptional()
  @IsUuid()
  userId?: string;
}

export class PurchaseRequirementDataDto {
  @ApiProperty({ format: 'uuid', example: '6a8e1d1e-7a55-4a8a-9b43-3d2f0b9b1e11' })
  requirementId: string;

  @ApiProperty({ type: 'object', additionalProperties: true, example: { addressLine1: '1 Main St', city: 'Lyon', country: 'FR' } })
  data: Record<string, unknown>;
}

/** A purchase with its buyer and the requirement data given (decrypted), for fulfilment. */
export class AdminPurchaseDto extends PurchaseDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  /** The buyer's handle (null only if no user of that id is found). */
  @ApiProperty({ type: String, nullable: true, example: 'alice' })
  handle: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Alice' })
  displayName: string | null;

  @ApiProperty({ type: PurchaseRequirementDataDto, isArray: true })
  requirementData: PurchaseRequirementDataDto[];
}
