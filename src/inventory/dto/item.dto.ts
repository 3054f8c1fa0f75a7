import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
  ValidateIf,
} from 'class-validator';
import { ToBoolean } from '../../common/validation/transforms.js';
import { PageQueryDto } from '../../common/pagination/pagination.js';
import {
  IfPresent,
  IsUuid,
  NotBlank,
  OptionalInt,
  OptionalNestedList,
  OptionalText,
  OptionalUrl,
  RequiredText,
} from '../../common/validation/decorators.js';

export const MAX_ITEM_SUPPLY = 1_000_000_000;

export class ItemAttributeDto {
  @ApiProperty({ example: 'colour' })
  @RequiredText({ max: 64 })
  traitType: string;

  /** A string (at most 200 characters) or a number. */
  @ApiProperty({ oneOf: [{ type: 'string', maxLength: 200 }, { type: 'number' }], example: 'gold' })
  @ValidateIf((_, v) => typeof v !== 'number')
  @IsString()
  @MaxLength(200)
  value: string | number;
}

/** An item of a community. */
export class ItemDto {
  @ApiProperty({ format: 'uuid', example: '0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  /** The slot the item fits. */
  @ApiProperty({ format: 'uuid', example: '7c1f0e4a-1b2c-4d3e-8f9a-0b1c2d3e4f50' })
  slotId: string;

  @ApiProperty({ example: 'head' })
  slotKey: string;

  @ApiProperty({ example: 'Golden crown' })
  name: string;

  @ApiProperty({ example: 'Worn by the season champion.' })
  description: string;

  @ApiProperty({ type: String, nullable: true, example: 'https://cdn.example.com/items/crown.png' })
  imageUrl: string | null;

  @ApiProperty({ example: 'legendary' })
  rarity: string;

  @ApiProperty({ type: ItemAttributeDto, isArray: true })
  attributes: ItemAttributeDto[];

  /** Units that can ever be granted; null means unlimited. */
  @ApiProperty({ type: Number, nullable: true, example: 100 })
  supply: number | null;

  /** Units granted so far. */
  @ApiProperty({ example: 12 })
  granted: number;

  /** Units left (`supply - granted`); null when unlimited. */
  @ApiProperty({ type: Number, nullable: true, example: 88 })
  remaining: number | null;
}

/** An item with what a given user holds of it. */
export class UserItemDto extends ItemDto {
  /** Units the user owns (0 when not owned). */
  @ApiProperty({ example: 1 })
  ownedQuantity: number;

  /** Whether the item is in one of the user's avatar slots. */
  @ApiProperty({ example: true })
  allocated: boolean;
}

/** `onlyOwned` as the interface gives it: a string, `true` or `false`. */
export class OnlyOwnedQueryDto extends PageQueryDto {
  /** `true`: only items the user owns; `false`: every item, with the user's quantity. Required; `true` or `false` in any case, or `1`/`0`. */
  @ApiProperty({ type: String, enum: ['true', 'false'], example: 'true' })
  @ToBoolean()
  @IsBoolean({ message: 'onlyOwned must be true or false' })
  onlyOwned: boolean;
}

export class UserItemsQueryDto extends OnlyOwnedQueryDto {
  /** Whose inventory: any user of the tenant (inventories are public). */
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  @IsUuid()
  userId: string;
}

export class UserQueryDto {
  /** Whose inventory: any user of the tenant (inventories are public). */
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  @IsUuid()
  userId: string;
}

export class CreateItemDto {
  /** Community id or slug. */
  @ApiProperty({ example: 'space-pirates' })
  @RequiredText({ max: 64 })
  communityId: string;

  /** The slot (id or key) the item fits. */
  @ApiProperty({ example: 'head' })
  @RequiredText({ max: 64 })
  slotId: string;

  @ApiProperty({ example: 'Golden crown' })
  @RequiredText({ max: 100 })
  @NotBlank()
  name: string;

  @ApiProperty({ type: ItemAttributeDto, isArray: true, required: false })
  @OptionalNestedList(() => ItemAttributeDto, { max: 20 })
  attributes?: ItemAttributeDto[];

  @OptionalText({ max: 1000 })
  description?: string;

  @OptionalUrl({ nullable: true })
  imageUrl?: string;

  /** Default `common`. */
  @ApiPropertyOptional()
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9_-]{0,31}$/, { message: 'rarity must be 1-32 lowercase letters, digits, _ or -' })
  rarity?: string;

  /** Units that can ever be granted; omit for unlimited. */
  @OptionalInt({ min: 1, max: MAX_ITEM_SUPPLY, nullable: true })
  supply?: number;
}

export class UpdateItemDto {
  @ApiProperty({ type: String, nullable: true, required: false })
  @OptionalUrl({ nullable: true })
  imageUrl?: string | null;

  @ApiProperty({ type: ItemAttributeDto, isArray: true, required: false })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => ItemAttributeDto)
  attributes?: ItemAttributeDto[];

  /** New cap (at least the units already granted); null makes it unlimited. */
  @ApiProperty({ type: Number, nullable: true, required: false, minimum: 1, maximum: MAX_ITEM_SUPPLY })
  @OptionalInt({ min: 1, max: MAX_ITEM_SUPPLY, nullable: true })
  supply?: number | null;

  @IfPresent()
  @IsString()
  @Length(1, 100)
  @NotBlank()
  name?: string;

  @IfPresent()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @IfPresent()
  @Matches(/^[a-z0-9][a-z0-9_-]{0,31}$/, { message: 'rarity must be 1-32 lowercase letters, digits, _ or -' })
  rarity?: string;
}

export class GrantItemDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  @IsUuid()
  userId: string;

  @ApiProperty({ format: 'uuid', example: '0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f' })
  @IsUuid()
  itemId: string;

  @ApiProperty({ example: 'tournament_prize' })
  @RequiredText({ max: 64 })
  @NotBlank({ description: 'Why, e.g. `tournament_prize`. Stored in the item ledger.' })
  reason: string;

  /** Default 1. */
  @OptionalInt({ min: 1, max: 1_000_000 })
  quantity?: number;

  @OptionalText({ max: 200 })
  reference?: string;

  /** Unique per tenant: a retry with the same key grants nothing more and returns the first grant. */
  @OptionalText({ min: 1, max: 128 })
  idempotencyKey?: string;
}

export class ItemGrantResultDto {
  @ApiProperty({ format: 'uuid', example: '9d7e1c53-0a41-4f6c-8f8f-2d1c6c3f7b11' })
  grantId: string;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ format: 'uuid', example: '0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f' })
  itemId: string;

  @ApiProperty({ example: 1 })
  quantity: number;

  /** What the user owns after the grant. */
  @ApiProperty({ example: 2 })
  ownedQuantity: number;

  /** true when the idempotency key had already been used: nothing was granted. */
  @ApiProperty({ example: false })
  replayed: boolean;
}

/** What a player holds of an item, in any community of the tenant (management). */
export class AdminHoldingDto {
  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  @ApiProperty({ example: 'pixel-pirates' })
  communitySlug: string;

  @ApiProperty({ format: 'uuid', example: '0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f' })
  itemId: string;

  @ApiProperty({ example: 'Pirate hat' })
  name: string;

  @ApiProperty({ example: 'head' })
  slotKey: string;

  @ApiProperty({ example: 'common' })
  rarity: string;

  @ApiProperty({ type: String, nullable: true, example: 'https://example.com/items/hat.png' })
  imageUrl: string | null;

  /** Units held. */
  @ApiProperty({ example: 1 })
  quantity: number;

  /** Whether the item is on the player's avatar (in its slot). */
  @ApiProperty({ example: true })
  allocated: boolean;

  /**
   * The status of the player's latest avatar mint in the community, for an item on the avatar
   * (a mint is of the avatar as it was when requested); null when not on the avatar or never minted.
   */
  @ApiProperty({ type: String, enum: ['pending', 'sending', 'minted', 'failed'], nullable: true, example: null })
  avatarMintStatus: string | null;

  /** When the player first received it. */
  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  acquiredAt: string;
}
