import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsISO8601, IsOptional, IsString, Length, Matches, ValidateIf } from 'class-validator';
import { IsUuid } from '../../common/validation/decorators.js';
import { IsBoundedJsonObject, NO_NUL } from '../bounded-json.validator.js';
import { ACCOUNT_TYPE_PATTERN } from '../social-account-types.js';

/** `extraArgs` and `createdAt`: JSON objects of at most 4 KB and 5 levels of nesting. */
export const SOCIAL_JSON_BOUNDS = { maxBytes: 4096, maxDepth: 5 };
/** ISO 8601: a date-time with `Z` or an offset, or a date alone (midnight UTC). */
export const ISO_8601_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const ISO_MESSAGE = 'expiryDate must be an ISO 8601 date-time with a time zone (e.g. 2026-05-01T12:00:00Z) or a date (2026-05-01)';
const lower = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));
const noNul = (field: string) => Matches(NO_NUL, { message: `${field} must not contain the NUL character` });

/** Fields shared by linking and updating; every one optional. `null` clears a field on update. */
class SocialOptionalFieldsDto {
  /** The name shown for the account (e.g. `ada#1234`). */
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 128, example: 'ada_plays' })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  @noNul('handle')
  handle?: string | null;

  /** A server, guild or region the account belongs to. */
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 128, example: 'eu-west' })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  @noNul('server')
  server?: string | null;

  /** When the stored tokens expire: ISO 8601 date-time with `Z` or an offset, or a date (midnight UTC). */
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time', maxLength: 40, example: '2026-05-01T12:00:00Z' })
  @IsOptional()
  @IsString()
  @Length(10, 40)
  @Matches(ISO_8601_INSTANT, { message: ISO_MESSAGE })
  @IsISO8601({ strict: true }, { message: ISO_MESSAGE })
  expiryDate?: string | null;

  /** Provider-specific data: a JSON object, at most 4 KB and 5 levels deep. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true, example: { scopes: ['identify'] } })
  @IsOptional()
  @IsBoundedJsonObject(SOCIAL_JSON_BOUNDS)
  extraArgs?: Record<string, unknown> | null;

  /** The provider's account-creation information: a JSON object, at most 4 KB and 5 levels deep. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { at: '2019-03-02T10:00:00Z', source: 'discord' },
  })
  @IsOptional()
  @IsBoundedJsonObject(SOCIAL_JSON_BOUNDS)
  createdAt?: Record<string, unknown> | null;

  /** Access token for the provider. Stored encrypted; never returned. */
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 4096, writeOnly: true, example: 'ya29.a0Af...' })
  @IsOptional()
  @IsString()
  @Length(1, 4096)
  userToken?: string | null;

  /** Refresh token for the provider. Stored encrypted; never returned. */
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 4096, writeOnly: true, example: '1//0g...' })
  @IsOptional()
  @IsString()
  @Length(1, 4096)
  refreshToken?: string | null;
}

export class LinkSocialDto extends SocialOptionalFieldsDto {
  /** One of the supported account types (see the list in the description of `POST /v1/user/socials`); case-insensitive. */
  @ApiProperty({ example: 'discord', maxLength: 32, pattern: ACCOUNT_TYPE_PATTERN.source })
  @lower()
  @IsString()
  @Matches(ACCOUNT_TYPE_PATTERN, { message: 'accountType must be 1-32 lowercase letters, digits, "_" or "-"' })
  accountType: string;

  /** The account's id at the provider (case-sensitive). */
  @ApiProperty({ example: '80351110224678912', maxLength: 256 })
  @IsString()
  @Length(1, 256)
  @noNul('subjectId')
  subjectId: string;

  /** Whether the account shows on the user's public profile. */
  @ApiProperty({ example: true })
  @IsBoolean()
  public: boolean;
}

export class UpdateSocialDto extends SocialOptionalFieldsDto {
  @ApiProperty({ format: 'uuid', example: '6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c' })
  @IsUuid()
  socialId: string;

  @ApiPropertyOptional({ example: false })
  @ValidateIf((o: UpdateSocialDto) => o.public !== undefined)
  @IsBoolean()
  public?: boolean;
}

export class SocialTypeParamDto {
  @ApiProperty({ example: 'discord', maxLength: 32 })
  @lower()
  @IsString()
  @Matches(ACCOUNT_TYPE_PATTERN, { message: 'type must be 1-32 lowercase letters, digits, "_" or "-"' })
  type: string;
}

export class SocialIdParamDto {
  @ApiProperty({ format: 'uuid', example: '6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c' })
  @IsUuid()
  id: string;
}

/** A linked account as its owner sees it. Tokens are never included. */
export class SocialDto {
  @ApiProperty({ format: 'uuid', example: '6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c' })
  id: string;

  @ApiProperty({ example: 'discord' })
  accountType: string;

  @ApiProperty({ example: '80351110224678912' })
  subjectId: string;

  @ApiProperty({ example: true })
  public: boolean;

  @ApiProperty({ type: String, nullable: true, example: 'ada_plays' })
  handle: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'eu-west' })
  server: string | null;

  /** When the stored tokens expire (UTC). */
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-05-01T12:00:00.000Z' })
  expiryDate: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: { scopes: ['identify'] } })
  extraArgs: Record<string, unknown> | null;

  /** The `createdAt` object given when linking (not a timestamp of this service; see `linkedAt`). */
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: { at: '2019-03-02T10:00:00Z' } })
  createdAt: Record<string, unknown> | null;

  /** Whether a user token is stored (the token itself is never returned). */
  @ApiProperty({ example: true })
  hasUserToken: boolean;

  /** Whether a refresh token is stored (the token itself is never returned). */
  @ApiProperty({ example: false })
  hasRefreshToken: boolean;

  @ApiProperty({ format: 'date-time', example: '2026-04-01T08:30:00.000Z' })
  linkedAt: string;

  @ApiProperty({ format: 'date-time', example: '2026-04-02T08:30:00.000Z' })
  updatedAt: string;
}

/** A public linked account, as it shows on a public profile. */
export class PublicSocialDto {
  @ApiProperty({ example: 'discord' })
  accountType: string;

  @ApiProperty({ example: '80351110224678912' })
  subjectId: string;

  @ApiProperty({ type: String, nullable: true, example: 'ada_plays' })
  handle: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'eu-west' })
  server: string | null;
}

/**
 * A linked account as support sees it (management): who it is at the provider and when it was
 * linked. Neither the tokens nor whether any is stored, nor the provider's free-form data.
 */
export class AdminSocialDto {
  @ApiProperty({ format: 'uuid', example: '6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c' })
  id: string;

  /** The provider (account type). */
  @ApiProperty({ example: 'discord' })
  accountType: string;

  /** The account's id at the provider. */
  @ApiProperty({ example: '80351110224678912' })
  subjectId: string;

  @ApiProperty({ type: String, nullable: true, example: 'ada_plays' })
  handle: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'eu-west' })
  server: string | null;

  /** Whether it shows on the player's public profile. */
  @ApiProperty({ example: true })
  public: boolean;

  @ApiProperty({ format: 'date-time', example: '2026-04-01T08:30:00.000Z' })
  linkedAt: string;
}
