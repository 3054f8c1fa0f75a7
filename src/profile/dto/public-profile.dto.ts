import { ApiProperty } from '@nestjs/swagger';
import { PublicSocialDto } from '../../socials/dto/social.dto.js';

/** What anyone may see of a user in a community. Never email, address, date of birth, username or tokens. */
export class PublicProfileDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ example: 'ada_l' })
  handle: string;

  @ApiProperty({ type: String, nullable: true, example: 'Ada Lovelace' })
  displayName: string | null;

  /** Image of the user's avatar in this community; null when none. */
  @ApiProperty({ type: String, nullable: true, example: null })
  avatarUrl: string | null;

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
