import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageQueryDto } from '../../common/pagination/pagination.js';
import { IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { ToInteger } from '../../common/validation/transforms.js';
import { IfPresent, NotBlank } from '../../common/validation/decorators.js';
import { ItemDto } from './item.dto.js';

export const SLOT_KEY_RE = /^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$/;

/** A slot of a community's avatar. */
export class SlotDto {
  @ApiProperty({ format: 'uuid', example: '7c1f0e4a-1b2c-4d3e-8f9a-0b1c2d3e4f50' })
  id: string;

  /** Lowercase key, unique in the community; accepted wherever a slotId is. */
  @ApiProperty({ example: 'head' })
  key: string;

  @ApiProperty({ example: 'Head' })
  name: string;

  @ApiProperty({ example: 'Hats, helmets and crowns.' })
  description: string;

  /** Display and layering order, ascending. */
  @ApiProperty({ example: 10 })
  position: number;
}

/** A slot with what the user has allocated to it. */
export class UserSlotDto extends SlotDto {
  @ApiProperty({ type: () => ItemDto, nullable: true, description: 'The allocated item, or null when the slot is empty.' })
  item: ItemDto | null;
}

/** The slots of a user's inventory. */
export class UserSlotsDto {
  @ApiProperty({ format: 'uuid', example: '5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21' })
  communityId: string;

  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ type: UserSlotDto, isArray: true })
  slots: UserSlotDto[];
}

export class CreateSlotDto {
  /** Community id or slug. */
  @ApiProperty({ example: 'space-pirates' })
  @IsString()
  @Length(1, 64)
  communityId: string;

  /** 1-64 lowercase letters, digits, `_` and `-`; unique in the community; not uuid-shaped. */
  @ApiProperty({ example: 'head' })
  @Matches(SLOT_KEY_RE, { message: 'key must be 1-64 lowercase letters, digits, _ or -, starting and ending with a letter or digit' })
  key: string;

  @ApiProperty({ example: 'Head' })
  @IsString()
  @Length(1, 100)
  @NotBlank()
  name: string;

  @IfPresent()
  @IsString()
  @MaxLength(1000)
  description?: string;

  /** Display and layering order (default 0). */
  @IfPresent()
  @ToInteger()
  @IsInt()
  @Min(-1000000)
  @Max(1000000)
  position?: number;
}

export class UpdateSlotDto {
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
  @IsInt()
  @Min(-1000000)
  @Max(1000000)
  position?: number;
}

/** `GET /v1/admin/inventory/slots` (management). */
export class AdminSlotsQueryDto {
  /** Community id or slug. */
  @ApiProperty({ example: 'space-pirates' })
  @IsString()
  @Length(1, 64)
  communityId: string;
}

/** `GET /v1/admin/inventory/items` (management). */
export class AdminItemsQueryDto extends PageQueryDto {
  /** Community id or slug. */
  @ApiProperty({ example: 'space-pirates' })
  @IsString()
  @Length(1, 64)
  communityId: string;

  /** Only the items of this slot (id or key). */
  @ApiPropertyOptional({ example: 'hat' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  slotId?: string;
}
