import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Length, Matches, ValidateIf, ValidateNested } from 'class-validator';
import { SlotDto, UserSlotDto } from './slot.dto.js';

/** The current user's holdings in the community. */
export class InventorySummaryDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  /** Distinct items owned. */
  @ApiProperty({ example: 4 })
  ownedItems: number;

  /** Units owned over all items. */
  @ApiProperty({ example: 6 })
  totalQuantity: number;

  /** Slots with an item allocated. */
  @ApiProperty({ example: 2 })
  allocatedSlots: number;

  /** The avatar version (0 before the first allocation). */
  @ApiProperty({ example: 3 })
  avatarVersion: number;
}

/** A community's inventory definition and the current user's summary. */
export class InventoryDto {
  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  @ApiProperty({ type: SlotDto, isArray: true })
  slots: SlotDto[];

  /** Items the community defines. */
  @ApiProperty({ example: 24 })
  itemCount: number;

  @ApiProperty({ type: InventorySummaryDto })
  user: InventorySummaryDto;
}

export class SlotAllocationDto {
  /** Slot id or key. */
  @ApiProperty({ example: 'head' })
  @IsString()
  @Length(1, 64)
  slotId: string;

  /** The item to put in the slot (an id); `null` or `""` empties the slot. */
  @ApiProperty({ type: String, nullable: true, format: 'uuid', example: '0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f' })
  @ValidateIf((_, v) => v !== null && v !== '')
  @IsString()
  @Matches(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, {
    message: 'itemId must be a uuid, null or ""',
  })
  itemId: string | null;
}

export class AllocateSlotsDto {
  /** Slots to set, all or nothing; slots not listed keep their item. */
  @ApiProperty({ type: SlotAllocationDto, isArray: true })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => SlotAllocationDto)
  slots: SlotAllocationDto[];
}

export class MintAvatarDto {
  /** A configured blockchain name. */
  @ApiProperty({ example: 'base-sepolia' })
  @IsString()
  @Length(1, 32)
  blockchain: string;
}

/** A mint of the avatar on a blockchain. */
export class AvatarMintDto {
  @ApiProperty({ format: 'uuid', example: '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d' })
  id: string;

  @ApiProperty({ example: 'base-sepolia' })
  blockchain: string;

  @ApiProperty({ example: 84532 })
  chainId: number;

  @ApiProperty({ example: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })
  contractAddress: string;

  /** The user's EVM address that receives the token. */
  @ApiProperty({ example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })
  recipient: string;

  /** The avatar version the token shows. */
  @ApiProperty({ example: 3 })
  avatarVersion: number;

  /** `pending` (queued or waiting to retry), `sending` (transaction in flight), `minted`, `failed`. */
  @ApiProperty({ enum: ['pending', 'sending', 'minted', 'failed'], example: 'minted' })
  status: string;

  /** uint256 as a decimal string. */
  @ApiProperty({ example: '73469261340386345512298316340553219845411409284290135396316476582735446331157' })
  tokenId: string;

  @ApiProperty({ type: String, nullable: true, example: '0x8d3e...' })
  txHash: string | null;

  /** The token URI: public ERC-721 metadata of this avatar version. */
  @ApiProperty({ example: 'https://api.example.com/v1/community/5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21/inventory/nft/8a1f.../1a2b...' })
  metadataUrl: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  error: string | null;

  @ApiProperty({ example: 1 })
  attempts: number;

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  requestedAt: Date;

  @ApiProperty({ type: Date, nullable: true, example: '2025-01-01T12:00:05.000Z' })
  mintedAt: Date | null;
}

/** A user's avatar: the allocated slots, the version, and its mints. */
export class AvatarDto {
  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  /** Grows by one with every allocation that changes the avatar (0: never allocated). */
  @ApiProperty({ example: 3 })
  version: number;

  @ApiProperty({ type: Date, nullable: true, example: '2025-01-01T12:00:00.000Z' })
  updatedAt: Date | null;

  /** Every slot of the community, with the allocated item or null. */
  @ApiProperty({ type: UserSlotDto, isArray: true })
  slots: UserSlotDto[];

  /** The mint status: the latest mint of any version and blockchain, null when never minted. */
  @ApiProperty({ type: AvatarMintDto, nullable: true })
  mint: AvatarMintDto | null;

  /** The latest 20 mints, newest first. */
  @ApiProperty({ type: AvatarMintDto, isArray: true })
  mints: AvatarMintDto[];
}

export class NftAttributeDto {
  @ApiProperty({ example: 'Head' })
  trait_type: string;

  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }], example: 'Golden crown' })
  value: string | number;
}

/** ERC-721 metadata JSON (the token URI document). */
export class NftMetadataDto {
  @ApiProperty({ example: 'Space Pirates avatar of captain #3' })
  name: string;

  @ApiProperty({ example: 'The avatar of captain in Space Pirates, version 3.' })
  description: string;

  @ApiProperty({ type: String, required: false, example: 'https://cdn.example.com/items/crown.png' })
  image?: string;

  @ApiProperty({ type: NftAttributeDto, isArray: true })
  attributes: NftAttributeDto[];
}
