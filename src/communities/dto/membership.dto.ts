import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/pagination.js';

export class JoinCommunityQueryDto {
  /**
   * Handle of the member who referred the user. Required by the interface; an empty value
   * (`?referrerHandle=`) means "nobody referred me" (the first members have no referrer).
   * The referrer must be a member of the community and not the user.
   */
  @ApiProperty({ required: true, example: 'grace_hopper', description: 'Handle of the referring member; empty for none.' })
  @IsString()
  @MaxLength(32)
  referrerHandle: string;
}

export class MembershipDto {
  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  joinedAt: Date;

  /** Handle of the member who referred the user into the community, if any. */
  @ApiProperty({ type: String, nullable: true, example: 'grace_hopper' })
  referrerHandle: string | null;

  /** true when this call created the membership (201); false when the user was already a member (200). */
  @ApiProperty({ example: true })
  created: boolean;
}

export class CommunityReferralDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ example: 'ada_l' })
  handle: string;

  @ApiProperty({ type: String, nullable: true, example: 'Ada' })
  displayName: string | null;

  /** When the referred user joined the community. */
  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  joinedAt: Date;
}

export class CommunityMembersQueryDto extends PageQueryDto {
  /** A part of the handle or display name, any case (empty: every member). */
  @ApiProperty({ required: false, maxLength: 64, example: 'ali' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  query?: string;
}

export class CommunityMemberDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ example: 'ada_l' })
  handle: string;

  @ApiProperty({ type: String, nullable: true, example: 'Ada' })
  displayName: string | null;

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  joinedAt: Date;
}
