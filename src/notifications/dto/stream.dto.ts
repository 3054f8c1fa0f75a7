import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { CURSOR_MAX_LENGTH } from '../stream/stream-cursor.js';

export class NotificationStreamQueryDto {
  /**
   * A stream ticket from `POST /v1/user/notifications/stream-ticket`, for browsers (an
   * `EventSource` cannot send `Authorization`). Used once; never put the session token here.
   */
  @ApiPropertyOptional({ example: 'st_Xq2vJ0c1m4b1y1GQ0gWcI6wq1n0d6Yk3c5mR2xV8pLA', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  ticket?: string;

  /**
   * The id of the last event received, when the `Last-Event-ID` header cannot be sent (a new
   * `EventSource` after a fresh ticket). The header wins when both are sent.
   */
  @ApiPropertyOptional({ example: '1203:1207:1205', maxLength: CURSOR_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(CURSOR_MAX_LENGTH)
  lastEventId?: string;
}

export class StreamTicketDto {
  /** Put it in the stream URL as `?ticket=`; valid once, for `expiresAt`. */
  @ApiProperty({ example: 'st_Xq2vJ0c1m4b1y1GQ0gWcI6wq1n0d6Yk3c5mR2xV8pLA' })
  ticket: string;

  @ApiProperty({ format: 'date-time', example: '2026-05-01T12:01:00.000Z' })
  expiresAt: string;
}
