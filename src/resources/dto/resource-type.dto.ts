import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUrl, Length, Matches, MaxLength } from 'class-validator';
import { IfPresent, IsUuid, NotBlank } from '../../common/validation/decorators.js';
import { RESOURCE_KINDS, type ResourceKind } from '../entities/resource-type.entity.js';

export class ResourceTypeDto {
  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  /** Unique in the community; the `{slug}` of the ranking and leaderboard routes. */
  @ApiProperty({ example: 'xp' })
  slug: string;

  @ApiProperty({ example: 'Experience points' })
  name: string;

  @ApiProperty({ example: 'Earned by completing quests.' })
  description: string;

  /** `global`: the community currency (XP) ranked on the leaderboard. `scoped`: belongs to one quest event. */
  @ApiProperty({ enum: RESOURCE_KINDS, example: 'global' })
  kind: ResourceKind;

  @ApiProperty({ type: String, nullable: true, example: 'https://cdn.example.com/xp.png' })
  imageUrl: string | null;

  /** The quest event of a scoped resource; null for global ones. */
  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  questEventId: string | null;

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  createdAt: Date;
}

export class CreateResourceTypeDto {
  /** 1-64 lowercase letters, digits, dashes and underscores. */
  @ApiProperty({ example: 'xp' })
  @Matches(/^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$/, {
    message: 'slug must be 1-64 lowercase letters, digits, "-" or "_", starting and ending with a letter or digit',
  })
  slug: string;

  @ApiProperty({ example: 'Experience points' })
  @IsString()
  @Length(1, 200)
  @NotBlank()
  name: string;

  @ApiProperty({ enum: RESOURCE_KINDS, example: 'global' })
  @IsIn(RESOURCE_KINDS)
  kind: ResourceKind;

  /** Community id or slug. */
  @ApiProperty()
  @IsString()
  @Length(1, 64)
  communityId: string;

  @ApiPropertyOptional()
  @IfPresent()
  @IsString()
  @MaxLength(5000)
  description?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true })
  @MaxLength(2048)
  imageUrl?: string;

  /** Scoped resources: the quest event they belong to (not checked until quest events exist). */
  @IfPresent()
  @IsUuid()
  questEventId?: string;
}

/** Slug, kind and community cannot change (ledger rows and rankings refer to them). null clears the image only. */
export class UpdateResourceTypeDto {
  @ApiProperty({ type: String, nullable: true, required: false })
  @IsOptional()
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true })
  @MaxLength(2048)
  imageUrl?: string | null;

  @IfPresent()
  @IsString()
  @Length(1, 200)
  @NotBlank()
  name?: string;

  @IfPresent()
  @IsString()
  @MaxLength(5000)
  description?: string;
}
