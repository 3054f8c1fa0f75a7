import { ApiProperty } from '@nestjs/swagger';
import { PublicSocialDto } from '../../socials/dto/social.dto.js';

/** One equipped avatar item: public catalogue data only. */
export class PublicAvatarPartDto {
  @ApiProperty({ example: 'head' })
  slotKey: string;

  @ApiProperty({ example: 'Head' })
  slotName: string;

  @ApiProperty({ format: 'uuid', example: '7d9f2b1a-3c4e-4f5a-8b6c-9d0e1f2a3b4c' })
  itemId: string;

  @ApiProperty({ example: 'Golden crown' })
  name: string;

  @ApiProperty({ type: String, nullable: true, example: 'https://cdn.example.com/items/crown.png' })
  imageUrl: string | null;

  @ApiProperty({ example: 'legendary' })
  rarity: string;
}

/** What anyone may see of a user in a community. Never email, address, date of birth, username or tokens. */
export class PublicProfileDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ example: 'ada_l' })
  handle: string;

  @ApiProperty({ type: String, nullable: true, example: 'Ada Lovelace' })
  displayName: string | null;

  /** The user's avatar in this community: the item equipped in each slot (empty when none). */
  @ApiProperty({ type: () => PublicAvatarPartDto, isArray: true })
  avatar: PublicAvatarPartDto[];

  /** Linked accounts the user marked public. */
  @ApiProperty({ type: PublicSocialDto, isArray: true })
  socials: PublicSocialDto[];

  @ApiProperty({ format: 'uuid', example: '9a1f6c2e-5b7d-4f3a-8e21-0c4d5b6a7f88' })
  communityId: string;

  /** Whether the user is a member of the community. */
  @ApiProperty({ example: true })
  member: boolean;

  /** Slug of the resource counted as XP: the community's global resource type (the oldest if several); null when it has none. */
  @ApiProperty({ type: String, nullable: true, example: 'xp' })
  xpResource: string | null;

  /** XP the user earned in the community (what its leaderboard ranks; spending does not lower it); 0 when none. */
  @ApiProperty({ example: 1250 })
  xp: number;

  /** Position on the community's XP leaderboard (1 = first, ties share a rank); null when the user has no XP. */
  @ApiProperty({ type: Number, nullable: true, example: 7 })
  rank: number | null;
}

export class ReferralDto {
  /** Current handle of the referred user. */
  @ApiProperty({ example: 'grace_h' })
  handle: string;

  @ApiProperty({ format: 'uuid', example: '5c8e2a41-9d3b-4f7e-a6c1-2b0d9e8f7a65' })
  userId: string;

  /** The community they were referred into; null for a sign-up referral. */
  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  communityId: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-04-01T08:30:00.000Z' })
  referredAt: string;
}
