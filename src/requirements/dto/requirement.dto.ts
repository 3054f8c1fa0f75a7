import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { ToInteger } from '../../common/validation/transforms.js';
import { IsUuid, NotBlank } from '../../common/validation/decorators.js';
import { REQUIREMENT_KINDS, type RequirementKind } from '../entities/store-requirement.entity.js';

const ADDRESS_SCHEMA_EXAMPLE = {
  type: 'object',
  required: ['addressLine1', 'city', 'country'],
  additionalProperties: false,
  properties: {
    addressLine1: { type: 'string', maxLength: 200 },
    city: { type: 'string', maxLength: 100 },
    country: { type: 'string', maxLength: 64 },
  },
};

export class CreateRequirementDto {
  /** Unique in the tenant: 1-64 lowercase letters, digits, `-`, `_`. */
  @ApiProperty({ example: 'shipping-address' })
  @Matches(/^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$/, {
    message: 'key must be 1-64 lowercase letters, digits, "-" or "_", starting and ending with a letter or digit',
  })
  key: string;

  @ApiProperty({ example: 'Shipping address' })
  @IsString()
  @Length(1, 200)
  @NotBlank()
  name: string;

  /** `data`: the buyer sends an object matching `schema`. `owns_item`: owns `itemId`. `min_resource`: has earned at least `minAmount` of `resourceTypeId`. */
  @ApiProperty({ enum: REQUIREMENT_KINDS, example: 'data' })
  @IsIn(REQUIREMENT_KINDS)
  kind: RequirementKind;

  /** `data` only: a JSON Schema (draft 2020-12 subset ajv supports, formats such as `email` included) with `type: "object"` at the top. At most 16 KB. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: ADDRESS_SCHEMA_EXAMPLE })
  @IsOptional()
  @IsObject()
  schema?: Record<string, unknown>;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  /** `data` only: whether the data is personal (then it is stored encrypted). Default true. */
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  personalData?: boolean;

  /** `owns_item` only: an inventory item of the tenant. */
  @IsOptional()
  @IsUuid()
  itemId?: string;

  /** `min_resource` only: a resource type of the tenant. */
  @IsOptional()
  @IsUuid()
  resourceTypeId?: string;

  /** `min_resource` only: the minimum earned amount. */
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  minAmount?: number;
}

export class RequirementDto {
  @ApiProperty({ format: 'uuid', example: '6a8e1d1e-7a55-4a8a-9b43-3d2f0b9b1e11' })
  id: string;

  @ApiProperty({ example: 'shipping-address' })
  key: string;

  @ApiProperty({ example: 'Shipping address' })
  name: string;

  @ApiProperty({ example: 'Where we send the prize.' })
  description: string;

  @ApiProperty({ enum: REQUIREMENT_KINDS, example: 'data' })
  kind: RequirementKind;

  /** The JSON schema the data must match (`data` requirements), else null. */
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: ADDRESS_SCHEMA_EXAMPLE })
  schema: Record<string, unknown> | null;

  @ApiProperty({ example: true })
  personalData: boolean;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  itemId: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  resourceTypeId: string | null;

  @ApiProperty({ type: Number, nullable: true, example: null })
  minAmount: number | null;

  @ApiProperty({ example: '2025-01-01T12:00:00.000Z' })
  createdAt: Date;
}

/** A requirement as a user sees it: the definition and the data they saved for it. */
export class UserRequirementDto extends RequirementDto {
  /** The data the user saved (`shouldSave`) for this requirement, or null. */
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { addressLine1: '1 Main St', city: 'Lyon', country: 'FR' },
  })
  savedData: Record<string, unknown> | null;
}
