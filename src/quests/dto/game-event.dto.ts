import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, Matches, Max, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { IfPresent, IsUuid, OptionalDate, RequiredText } from '../../common/validation/decorators.js';

/** Most events one request posts. */
export const MAX_GAME_EVENTS_PER_BATCH = 500;

/** Something a player did in the game. */
export class GameEventInputDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  @IsUuid()
  userId: string;

  /** The game's name for it (letters, digits, `_ . : -`), what `game_event` tasks name. */
  @ApiProperty({ example: 'match_won' })
  @RequiredText({ max: 64 })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/)
  type: string;

  /** How much (default 1), what a `sum` task adds. */
  @ApiPropertyOptional({ minimum: 0, maximum: 1_000_000_000, default: 1 })
  @IfPresent()
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  value?: number;

  /** When it happened (default: when it is received); what a task's period is judged by. */
  @ApiPropertyOptional({ type: String, format: 'date-time', example: '2026-12-02T10:00:00.000Z' })
  @OptionalDate()
  occurredAt?: Date;

  /** Unique per tenant: an event posted again with its key is stored once (a retried batch adds nothing). */
  @ApiProperty({ example: 'match-8f2c1e-player-3b2411' })
  @RequiredText({ max: 128 })
  @Matches(/^[\x21-\x7e]+$/, { message: 'idempotencyKey must be printable ASCII without spaces' })
  idempotencyKey: string;
}

export class PostGameEventsDto {
  @ApiProperty({ type: [GameEventInputDto], minItems: 1, maxItems: MAX_GAME_EVENTS_PER_BATCH })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_GAME_EVENTS_PER_BATCH)
  @ValidateNested({ each: true })
  @Type(() => GameEventInputDto)
  events: GameEventInputDto[];
}

export class GameEventsResultDto {
  /** Events stored now. */
  @ApiProperty({ example: 99 })
  accepted: number;

  /** Events whose idempotency key was stored before (a batch sent again). */
  @ApiProperty({ example: 1 })
  duplicates: number;

  /** Events of users that are not the tenant's: not stored (their keys). */
  @ApiProperty({ type: [String], example: [] })
  unknownUsers: string[];
}
