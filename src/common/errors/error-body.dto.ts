import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The body of every error response. */
export class ErrorBodyDto {
  @ApiProperty({
    description: 'Stable numeric code. Every 400 uses 10002; every other case has its own (see the error table).',
    example: 10002,
  })
  code: number;

  @ApiProperty({
    description:
      "The interface's identifier, for clients to compare: `generic_client_error` for every 400; `GENERIC_UNAUTHORIZED`, `SESSION_TOKEN_EXPIRED` (refresh the session) or `REFRESH_TOKEN_EXPIRED` (log in again) for every 401; the `error` identifier for every other status.",
    example: 'generic_client_error',
  })
  message: string;

  @ApiProperty({
    description: 'Stable identifier of the precise case (e.g. `validation_failed`, `event_full`, `login_token_replayed`).',
    example: 'validation_failed',
  })
  error: string;

  @ApiProperty({
    description: "Human-readable explanation of this request's error, for logs and developers; its wording may change, never parse it.",
    example: 'username must be longer than or equal to 3 characters',
  })
  detail: string;

  @ApiPropertyOptional({
    description: 'Id of the request, also in the X-Request-Id header.',
    example: '5f0c6a52-3b1e-4f4e-9d3c-2a8f9b1e7c11',
  })
  requestId?: string;

  @ApiPropertyOptional({
    description: 'Structured detail for some errors (e.g. which fields or which requirement failed).',
    type: 'object',
    additionalProperties: true,
  })
  details?: Record<string, unknown>;
}
