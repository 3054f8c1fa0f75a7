import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The body of every error response. */
export class ErrorBodyDto {
  @ApiProperty({ description: 'Stable numeric code; every 400 uses 10002.', example: 10002 })
  code: number;

  @ApiProperty({ description: 'Stable identifier of the error.', example: 'generic_client_error' })
  error: string;

  @ApiProperty({ description: 'Human-readable, specific explanation.', example: 'username must be at least 3 characters' })
  message: string;

  @ApiPropertyOptional({ description: 'Id of the request, also in the X-Request-Id header.', example: '5f0c6a52-3b1e-4f4e-9d3c-2a8f9b1e7c11' })
  requestId?: string;

  @ApiPropertyOptional({ description: 'Structured detail for some errors (e.g. which requirement failed).', type: 'object', additionalProperties: true })
  details?: Record<string, unknown>;
}
