import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { USERNAME_PATTERN } from '../../auth/dto/password.dto.js';
import { ToArray } from '../../common/validation/transforms.js';
import { NO_NUL } from '../../socials/bounded-json.validator.js';
import { SocialDto } from '../../socials/dto/social.dto.js';

/** What `GET /v1/user/profile?fields=` may ask for. */
export const PROFILE_FIELDS = [
  'id',
  'username',
  'handle',
  'displayName',
  'biography',
  'dateOfBirth',
  'address',
  'socials',
  'createdAt',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export const BIOGRAPHY_MAX = 1000;

const noNul = (field: string) => Matches(NO_NUL, { message: `${field} must not contain the NUL character` });

export class ProfileQueryDto {
  /**
   * The fields to return (repeat the parameter or separate with commas), among: `id`, `username`,
   * `handle`, `displayName`, `biography`, `dateOfBirth`, `address`, `socials`, `createdAt`.
   * An unknown field is a 400.
   */
  @ApiProperty({ type: [String], enum: PROFILE_FIELDS, isArray: true, example: ['handle', 'displayName'] })
  @ToArray()
  @IsArray()
  @ArrayNotEmpty({ message: 'fields must name at least one field' })
  @ArrayMaxSize(PROFILE_FIELDS.length * 2)
  @IsIn(PROFILE_FIELDS, { each: true, message: `fields may contain only: ${PROFILE_FIELDS.join(', ')}` })
  fields: ProfileField[];
}

/** A date of birth: a real calendar date, in the past, from 1900 on. */
export class DateOfBirthDto {
  @ApiProperty({ minimum: 1900, maximum: 9999, example: 1990 })
  @IsInt()
  @Min(1900)
  @Max(9999)
  year: number;

  @ApiProperty({ minimum: 1, maximum: 12, example: 12 })
  @IsInt()
  @Min(1)
  @Max(12)
  month: number;

  @ApiProperty({ minimum: 1, maximum: 31, example: 10 })
  @IsInt()
  @Min(1)
  @Max(31)
  day: number;
}

/** The Address shape of the interface. Every field optional. */
export class AddressDto {
  @ApiPropertyOptional({ maxLength: 64, example: 'home' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @noNul('addressId')
  addressId?: string;

  @ApiPropertyOptional({ maxLength: 200, example: '12 Analytical Row' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @noNul('addressLine1')
  addressLine1?: string;

  @ApiPropertyOptional({ maxLength: 200, example: 'Flat 3' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @noNul('addressLine2')
  addressLine2?: string;

  @ApiPropertyOptional({ maxLength: 200, example: '' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @noNul('addressLine3')
  addressLine3?: string;

  @ApiPropertyOptional({ maxLength: 100, example: 'London' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @noNul('city')
  city?: string;

  @ApiPropertyOptional({ maxLength: 100, example: 'Greater London' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @noNul('state')
  state?: string;

  @ApiPropertyOptional({ maxLength: 32, example: 'W1 1AA' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  @noNul('postalCode')
  postalCode?: string;

  @ApiPropertyOptional({ maxLength: 64, example: 'GB' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @noNul('country')
  country?: string;
}

/** Every field optional; absent fields are kept, `null` clears (except `handle`). */
export class UpdateProfileDto {
  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: 64, example: 'Ada Lovelace' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  @noNul('displayName')
  displayName?: string | null;

  /** 3–32 characters: letters, digits, `_`, `.`, `-`, starting with a letter or digit. Unique per tenant, case-insensitively (409 otherwise). */
  @ApiPropertyOptional({ minLength: 3, maxLength: 32, pattern: USERNAME_PATTERN.source, example: 'ada_l' })
  @ValidateIf((o: UpdateProfileDto) => o.handle !== undefined)
  @IsString()
  @Length(3, 32)
  @Matches(USERNAME_PATTERN, {
    message: 'handle may contain only letters, digits, "_", "." and "-", and must start with a letter or digit',
  })
  handle?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: BIOGRAPHY_MAX, example: 'First programmer. Plays support.' })
  @IsOptional()
  @IsString()
  @MaxLength(BIOGRAPHY_MAX)
  @noNul('biography')
  biography?: string | null;

  @ApiPropertyOptional({ type: DateOfBirthDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DateOfBirthDto)
  dateOfBirth?: DateOfBirthDto | null;

  @ApiPropertyOptional({ type: AddressDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto | null;
}

/** The current user's profile. Only the fields asked for in `fields` are present. */
export class ProfileDto {
  @ApiPropertyOptional({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  id?: string;

  /** Login name of a password account; null for accounts made by other logins. */
  @ApiPropertyOptional({ type: String, nullable: true, example: 'ada_lovelace' })
  username?: string | null;

  @ApiPropertyOptional({ example: 'ada_l' })
  handle?: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Ada Lovelace' })
  displayName?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'First programmer. Plays support.' })
  biography?: string | null;

  @ApiPropertyOptional({ type: DateOfBirthDto, nullable: true })
  dateOfBirth?: DateOfBirthDto | null;

  @ApiPropertyOptional({ type: AddressDto, nullable: true })
  address?: AddressDto | null;

  /** All linked social accounts (public or not), as in `GET /v1/user/socials`. */
  @ApiPropertyOptional({ type: SocialDto, isArray: true })
  socials?: SocialDto[];

  /** When the account was created. */
  @ApiPropertyOptional({ format: 'date-time', example: '2026-04-01T08:30:00.000Z' })
  createdAt?: string;
}

export class PublicProfileQueryDto {
  /** The community (id or slug) whose XP and rank to show. */
  @ApiProperty({ example: 'pixel-pirates', maxLength: 64 }) // the demo tenant's community (npm start on a fresh clone)
  @IsString()
  @Length(1, 64)
  containerId: string;
}

export class PublicProfileParamDto {
  /** The user's login username, handle (both case-insensitive) or user id. */
  @ApiProperty({ example: 'alice', maxLength: 36 }) // a player of the demo tenant
  @IsString()
  @Length(1, 36)
  username: string;
}
