import { IsTimeZone } from '../../common/validation/time-zone.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { Matches } from 'class-validator';
import {
  HttpUrl,
  IfPresent,
  NotBlank,
  OptionalNestedList,
  OptionalText,
  OptionalUrl,
  RequiredText,
} from '../../common/validation/decorators.js';

export const COMMUNITY_SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export class CommunityLinkDto {
  @ApiProperty({ example: 'Discord' })
  @RequiredText({ max: 64 })
  label: string;

  @ApiProperty({ example: 'https://discord.gg/example' })
  @HttpUrl()
  url: string;
}

/** The community record. */
export class CommunityDto {
  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  id: string;

  /** Lowercase, unique in the tenant; usable instead of the id in every `{communityId}`. */
  @ApiProperty({ example: 'space-pirates' })
  slug: string;

  @ApiProperty({ example: 'Space Pirates' })
  name: string;

  @ApiProperty({ example: 'The crew of the outer rim.' })
  description: string;

  @ApiProperty({ type: String, nullable: true, example: 'https://cdn.example.com/logo.png' })
  imageUrl: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'https://cdn.example.com/banner.png' })
  bannerUrl: string | null;

  @ApiProperty({ type: CommunityLinkDto, isArray: true })
  links: CommunityLinkDto[];

  @ApiProperty({ example: 1280 })
  memberCount: number;

  /** IANA time zone of its calendar: where daily, weekly and monthly quests start a new period (extension). */
  @ApiPropertyOptional({ example: 'Europe/Berlin' })
  timeZone?: string;

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  createdAt: Date;
}

export class CreateCommunityDto {
  /** 1-64 lowercase letters, digits and dashes; not uuid-shaped; `resource-types` is reserved. */
  @ApiProperty({ example: 'space-pirates' })
  @Matches(COMMUNITY_SLUG_RE, {
    message: 'slug must be 1-64 lowercase letters, digits or dashes, starting and ending with a letter or digit',
  })
  slug: string;

  @ApiProperty({ example: 'Space Pirates' })
  @RequiredText({ max: 200 })
  @NotBlank()
  name: string;

  @ApiProperty({ type: CommunityLinkDto, isArray: true, required: false })
  @OptionalNestedList(() => CommunityLinkDto, { max: 20 })
  links?: CommunityLinkDto[];

  /** IANA time zone where its daily, weekly and monthly quests start a new period (absent: `UTC`). */
  @ApiPropertyOptional({ example: 'Europe/Berlin' })
  @IfPresent()
  @IsTimeZone()
  timeZone?: string;

  @OptionalText({ max: 5000 })
  description?: string;

  @OptionalUrl({ nullable: true })
  imageUrl?: string;

  @OptionalUrl({ nullable: true })
  bannerUrl?: string;
}

/** Every field optional; `null` clears an image and is refused elsewhere. */
export class UpdateCommunityDto {
  @ApiProperty({ required: false, example: 'space-pirates' })
  @IfPresent()
  @Matches(COMMUNITY_SLUG_RE, {
    message: 'slug must be 1-64 lowercase letters, digits or dashes, starting and ending with a letter or digit',
  })
  slug?: string;

  @ApiProperty({ type: String, nullable: true, required: false })
  @OptionalUrl({ nullable: true })
  imageUrl?: string | null;

  @ApiProperty({ type: String, nullable: true, required: false })
  @OptionalUrl({ nullable: true })
  bannerUrl?: string | null;

  @ApiProperty({ type: CommunityLinkDto, isArray: true, required: false })
  @OptionalNestedList(() => CommunityLinkDto, { max: 20 })
  links?: CommunityLinkDto[];

  /** IANA time zone where its daily, weekly and monthly quests start a new period; a change moves the current period's boundaries. */
  @ApiPropertyOptional({ example: 'Europe/Berlin' })
  @IfPresent()
  @IsTimeZone()
  timeZone?: string;

  @OptionalText({ min: 1, max: 200 })
  @NotBlank()
  name?: string;

  @OptionalText({ max: 5000 })
  description?: string;
}
