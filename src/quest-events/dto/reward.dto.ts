import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IfPresent, IsUuid, NotBlank, OptionalInt, OptionalText, RequiredText } from '../../common/validation/decorators.js';
import { AddressDto } from '../../profile/dto/profile.dto.js';
import { REWARD_KINDS, type RewardKind, WALLET_CHAINS, type WalletChain } from '../entities/quest-event-reward.entity.js';

export class CreateRewardDto {
  @ApiProperty({ example: 'Golden ticket' })
  @RequiredText({ max: 200 })
  @NotBlank()
  name: string;

  /** `resource`: credits `amount` of `resourceTypeId`; `item`: grants `amount` units of `itemId`; `manual`: the operator fulfils it with the submitted data. */
  @ApiProperty({ enum: REWARD_KINDS, example: 'resource' })
  @IsIn(REWARD_KINDS)
  kind: RewardKind;

  /** Units given per claim (default 1). */
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @OptionalInt({ min: 1, max: 1_000_000_000 })
  amount?: number;

  /** Tickets each eligible participant is allocated for this reward (default 1). */
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @OptionalInt({ min: 1, max: 1_000_000 })
  tickets?: number;

  /** Tickets one claim spends (default 1). */
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @OptionalInt({ min: 1, max: 1_000_000 })
  ticketCost?: number;

  /** Claims available in total; absent: unlimited. */
  @ApiPropertyOptional({ minimum: 0 })
  @OptionalInt({ min: 0, max: 1_000_000_000 })
  supply?: number;

  /** Rank bracket (inclusive) of the participants allocated this reward; absent: no bound. */
  @ApiPropertyOptional({ minimum: 1 })
  @IfPresent()
  @IsInt()
  @Min(1)
  rankFrom?: number;

  @ApiPropertyOptional({ minimum: 1 })
  @IfPresent()
  @IsInt()
  @Min(1)
  rankTo?: number;

  /**
   * The chain of the wallet address a claim gives (checked whenever one is given): `evm` (default)
   * an EVM address, `sui` a Sui address (what a zkLogin player holds), `any` either.
   */
  @ApiPropertyOptional({ enum: WALLET_CHAINS, default: 'evm' })
  @IfPresent()
  @IsIn(WALLET_CHAINS)
  walletChain?: WalletChain;

  @OptionalText({ max: 5000 })
  description?: string;

  /** `resource` rewards: a global resource type of the event's community (scoped types are refused: the reward is paid after the event). */
  @ValidateIf((o: CreateRewardDto) => o.kind === 'resource')
  @IsUuid()
  resourceTypeId?: string;

  @ValidateIf((o: CreateRewardDto) => o.kind === 'item')
  @IsUuid()
  itemId?: string;

  @IfPresent()
  @IsBoolean()
  requiresEmail?: boolean;

  @IfPresent()
  @IsBoolean()
  requiresWalletAddress?: boolean;

  @IfPresent()
  @IsBoolean()
  requiresAddress?: boolean;
}

export class RewardDto {
  @ApiProperty({ format: 'uuid', example: '9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b' })
  eventId: string;

  @ApiProperty({ example: 'Golden ticket' })
  name: string;

  @ApiProperty({ example: '' })
  description: string;

  @ApiProperty({ enum: REWARD_KINDS, example: 'resource' })
  kind: RewardKind;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  resourceTypeId: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: '0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f' })
  itemId: string | null;

  @ApiProperty({ example: 1 })
  amount: number;

  @ApiProperty({ example: 1 })
  tickets: number;

  @ApiProperty({ example: 1 })
  ticketCost: number;

  @ApiProperty({ type: Number, nullable: true, example: 10 })
  supply: number | null;

  @ApiProperty({ example: 3 })
  claimed: number;

  @ApiProperty({ type: Number, nullable: true, example: 1 })
  rankFrom: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 10 })
  rankTo: number | null;

  @ApiProperty({ example: false })
  requiresEmail: boolean;

  @ApiProperty({ example: true })
  requiresWalletAddress: boolean;

  /** The chain of the wallet address a claim must give: `evm`, `sui` or `any`. */
  @ApiProperty({ enum: WALLET_CHAINS, example: 'evm' })
  walletChain: WalletChain;

  @ApiProperty({ example: false })
  requiresAddress: boolean;
}

export class RequirementDataDto {
  @ApiPropertyOptional({ example: 'ada@example.com' })
  email?: string;

  @ApiPropertyOptional({ example: '0x52908400098527886E0F7030069857D2E4169EE7' })
  walletAddress?: string;

  @ApiPropertyOptional({ type: AddressDto })
  address?: AddressDto;
}

export class RewardAllocationDto {
  @ApiProperty({ format: 'uuid', example: '9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b' })
  eventId: string;

  @ApiProperty({ type: RewardDto })
  reward: RewardDto;

  /** Tickets allocated at completion. */
  @ApiProperty({ example: 2 })
  tickets: number;

  @ApiProperty({ example: 1 })
  ticketsSpent: number;

  @ApiProperty({ example: 1 })
  ticketsRemaining: number;

  /** The participant's rank and score at completion. */
  @ApiProperty({ type: Number, nullable: true, example: 3 })
  rank: number | null;

  @ApiProperty({ example: 420 })
  score: number;

  /** The data submitted with the last claim; null before any claim. */
  @ApiProperty({ type: RequirementDataDto, nullable: true })
  requirementData: RequirementDataDto | null;

  @ApiProperty({ format: 'date-time', example: '2025-06-12T12:00:00.000Z' })
  createdAt: Date;
}

/** What a reward may require. Unknown fields are refused. */
export class ClaimRewardDto {
  @ApiPropertyOptional({ maxLength: 254, example: 'ada@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an email address' })
  email?: string;

  /**
   * An EVM address (`0x` + 40 hex digits; mixed case must be a valid EIP-55 checksum; stored
   * checksummed) or a Sui address (`0x` + 64 hex digits; stored in lower case), as the reward's
   * `walletChain` takes; another chain's address is 400 `claim_requirements`.
   */
  @ApiPropertyOptional({ example: '0x52908400098527886E0F7030069857D2E4169EE7' })
  @IsOptional()
  @IsString()
  @Matches(/^0x(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/, {
    message: 'walletAddress must be 0x followed by 40 (EVM) or 64 (Sui) hexadecimal digits',
  })
  walletAddress?: string;

  @ApiPropertyOptional({ type: AddressDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto;
}

export class RewardClaimDto {
  @ApiProperty({ format: 'uuid', example: '8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d' })
  claimId: string;

  @ApiProperty({ type: RewardAllocationDto })
  allocation: RewardAllocationDto;

  @ApiProperty({ example: 1 })
  ticketsSpent: number;

  /** `processed`: the resource was credited or the item granted; `pending_fulfilment`: a manual reward the operator delivers. */
  @ApiProperty({ enum: ['processed', 'pending_fulfilment'], example: 'processed' })
  status: 'processed' | 'pending_fulfilment';
}

/** An allocation with whose it is (management). */
export class AdminRewardAllocationDto extends RewardAllocationDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  /** The player's handle (null only if the user was deleted since). */
  @ApiProperty({ type: String, nullable: true, example: 'alice' })
  handle: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Alice' })
  displayName: string | null;
}
