import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { PageQueryDto, Paginated } from '../../common/pagination/pagination.js';
import { OptionalDate, OptionalText } from '../../common/validation/decorators.js';

export const AUDITED_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

export class AuditLogQueryDto extends PageQueryDto {
  /** Entries whose route template starts with this (`/v1/admin/communities` matches its sub-routes too). */
  @ApiPropertyOptional({ example: '/v1/admin/communities', maxLength: 256 })
  @OptionalText({ max: 256 })
  @Matches(/^\/v1\/admin\//, { message: 'route must start with /v1/admin/' })
  route?: string;

  /** Entries of this HTTP method only (reads are not recorded). */
  @ApiPropertyOptional({ enum: AUDITED_METHODS, example: 'POST' })
  @IsOptional()
  @IsIn(AUDITED_METHODS, { message: `method must be one of: ${AUDITED_METHODS.join(', ')}` })
  method?: (typeof AUDITED_METHODS)[number];

  /** The caller, as entries name it. */
  @ApiPropertyOptional({ example: 'api-key:3f9a1c0b7d2e', maxLength: 64 })
  @OptionalText({ max: 64 })
  actor?: string;

  /** Entries at or after this time. */
  @ApiPropertyOptional({ type: String, format: 'date-time', example: '2026-11-01T00:00:00.000Z' })
  @OptionalDate()
  from?: Date;

  /** Entries before this time. */
  @ApiPropertyOptional({ type: String, format: 'date-time', example: '2026-12-01T00:00:00.000Z' })
  @OptionalDate()
  to?: Date;
}

/** One management write. */
export class AuditEntryDto {
  @ApiProperty({ format: 'uuid', example: '7a4c2f0e-5d1b-4e8a-9c3f-2b6d8e1a4f90' })
  id: string;

  /** The caller: `api-key:` and the first 12 hex digits of the key's SHA-256 (never the key). */
  @ApiProperty({ example: 'api-key:3f9a1c0b7d2e' })
  actor: string;

  @ApiProperty({ enum: AUDITED_METHODS, example: 'PATCH' })
  method: string;

  /** The route template. */
  @ApiProperty({ example: '/v1/admin/communities/:communityId' })
  route: string;

  /** The path parameters. */
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { communityId: '0f8e2d4c-1b3a-4c5d-9e7f-6a8b0c2d4e6f' },
  })
  target: Record<string, string>;

  /**
   * The request body with secret-named fields (`secret`, `password`, `token`, `apiKey`, `…key`) as
   * `"[redacted]"`; over 8 KB of JSON, `{ truncated: true, preview }`; null when there was none.
   */
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: { name: 'Pixel Pirates' } })
  body: object | null;

  @ApiProperty({ example: 200 })
  statusCode: number;

  /** The id of the resource the response named (created or changed; a grant's ledger entry), when it named one. */
  @ApiProperty({ type: String, nullable: true, example: '0f8e2d4c-1b3a-4c5d-9e7f-6a8b0c2d4e6f' })
  outcome: string | null;

  /**
   * The client went away before the whole answer was sent. The request ran to its end all the
   * same: `statusCode` and `outcome` are how it ended (a write may have been applied).
   */
  @ApiProperty({ example: false })
  aborted: boolean;

  @ApiProperty({ format: 'date-time', example: '2026-11-25T14:02:11.512Z' })
  createdAt: string;
}

/** A page of the audit log, newest first. */
export class AuditLogPageDto extends Paginated(AuditEntryDto) {}
