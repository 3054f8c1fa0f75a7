import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/pagination.js';
import { HttpUrl, IfPresent, IsUuid, OptionalDate, OptionalInt, OptionalText, RequiredDate } from '../../common/validation/decorators.js';
import { PUBLIC_EVENT_TYPES } from '../event-catalog.js';

const EVENT_TYPE_PATTERN = /^(\*|[a-z_]{1,32}\.[a-z_]{1,32})$/;
const TYPES_TEXT = `Event types to deliver (\`*\`: every type): ${PUBLIC_EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}.`;

export class CreateSubscriptionDto {
  @ApiProperty({
    example: 'https://game.example.com/hooks/cgs',
    description: 'Where deliveries are POSTed: http(s), no credentials; its host must resolve to public addresses only.',
  })
  @HttpUrl()
  url: string;

  @ApiProperty({ type: [String], example: ['store.purchase_completed', 'quest.completed'], description: TYPES_TEXT, maxItems: 50 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Matches(EVENT_TYPE_PATTERN, { each: true })
  eventTypes: string[];

  @ApiPropertyOptional({
    default: true,
    description: 'Inactive: its events are not queued while it is (deliveries queued before wait until it is active again).',
  })
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ example: 'Game server (production)', maxLength: 128 })
  @OptionalText({ max: 128, nullable: true })
  description?: string;
}

// null is refused (400), not taken for "absent" nor stored in a NOT NULL column.
export class UpdateSubscriptionDto {
  @ApiPropertyOptional({ example: 'https://game.example.com/hooks/cgs' })
  @IfPresent()
  @HttpUrl()
  url?: string;

  @ApiPropertyOptional({ type: [String], description: TYPES_TEXT, maxItems: 50 })
  @IfPresent()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Matches(EVENT_TYPE_PATTERN, { each: true })
  eventTypes?: string[];

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ maxLength: 128 })
  @OptionalText({ max: 128, nullable: true })
  description?: string;
}

export class RotateSecretDto {
  @ApiPropertyOptional({
    default: 86400,
    minimum: 0,
    maximum: 604800,
    description: 'How long the previous secret still signs, in seconds (both signatures are sent meanwhile). 0: at once.',
  })
  @OptionalInt({ min: 0, max: 604800 })
  overlapSeconds?: number;
}

export class SubscriptionDto {
  @ApiProperty({ example: '3f2b8c1e-6d4a-4e5f-9a7b-1c2d3e4f5a6b', format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'https://game.example.com/hooks/cgs' })
  url: string;

  @ApiProperty({ example: ['store.purchase_completed', 'quest.completed'], type: [String] })
  eventTypes: string[];

  @ApiProperty({ example: true })
  active: boolean;

  @ApiProperty({ example: 'Game server (production)', type: String, nullable: true })
  description: string | null;

  @ApiProperty({
    example: '2026-11-25T12:00:00.000Z',
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Until when the previous secret (before a rotation) also signs.',
  })
  previousSecretExpiresAt: Date | null;

  @ApiProperty({ example: '2026-11-25T12:00:00.000Z' })
  createdAt: Date;

  @ApiProperty({ example: '2026-11-25T12:00:00.000Z' })
  updatedAt: Date;
}

export class SubscriptionWithSecretDto extends SubscriptionDto {
  @ApiProperty({
    example: 'whsec_2Jq0mV0y0o3o6sY1pZb9mF1nS0aH8cQ4rT7uW2xE5kA',
    description: 'The signing secret: shown only in this answer (it is stored encrypted). Verify with it: docs/integrations.md.',
  })
  secret: string;
}

export class SubscriptionListDto {
  @ApiProperty({ type: [SubscriptionDto] })
  items: SubscriptionDto[];
}

export class AttemptDto {
  @ApiProperty({ example: '2026-11-25T12:00:00.000Z' })
  attemptedAt: Date;

  @ApiProperty({
    example: 500,
    type: Number,
    nullable: true,
    description: 'The HTTP status; null without an answer (timeout, connection refused).',
  })
  statusCode: number | null;

  @ApiProperty({ example: 42 })
  durationMs: number;

  @ApiProperty({ example: 'HTTP 500', type: String, nullable: true })
  error: string | null;
}

export class DeliveryDto {
  @ApiProperty({ example: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', format: 'uuid' })
  id: string;

  @ApiProperty({ example: '3f2b8c1e-6d4a-4e5f-9a7b-1c2d3e4f5a6b', format: 'uuid' })
  subscriptionId: string;

  @ApiProperty({
    example: 'c0ffee00-1234-4abc-8def-0123456789ab',
    format: 'uuid',
    description: 'The event id (the `X-CGS-Event-Id` header).',
  })
  eventId: string;

  @ApiProperty({ example: 'store.purchase_completed' })
  eventType: string;

  @ApiProperty({
    enum: ['pending', 'delivering', 'delivered', 'dead'],
    description:
      '`pending`: waiting for its next attempt; `delivering`: an attempt is in flight; `dead`: retried for the whole window and given up.',
  })
  status: string;

  @ApiProperty({ example: 3, description: 'Attempts since it was (re)queued.' })
  attempts: number;

  @ApiProperty({
    example: '2026-11-25T12:00:00.000Z',
    description: 'When it is next due (pending), or when its lease runs out (delivering).',
  })
  nextAttemptAt: Date;

  @ApiProperty({ example: 500, type: Number, nullable: true })
  lastStatusCode: number | null;

  @ApiProperty({ example: 'HTTP 500', type: String, nullable: true })
  lastError: string | null;

  @ApiProperty({ example: '2026-11-25T12:00:00.000Z' })
  createdAt: Date;

  @ApiProperty({ example: '2026-11-25T12:00:00.000Z', type: String, format: 'date-time', nullable: true })
  deliveredAt: Date | null;

  @ApiProperty({ type: [AttemptDto], description: 'Every attempt, oldest first (redeliveries included).' })
  history: AttemptDto[];
}

export class DeliveryQueryDto extends PageQueryDto {
  /** Deliveries to this subscription only. */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuid()
  subscriptionId?: string;

  /** Deliveries in this state only: waiting for an attempt, being sent, delivered, or given up after the last retry. */
  @ApiPropertyOptional({ enum: ['pending', 'delivering', 'delivered', 'dead'] })
  @IsOptional()
  @IsIn(['pending', 'delivering', 'delivered', 'dead'])
  status?: 'pending' | 'delivering' | 'delivered' | 'dead';

  /** Deliveries of this event (its `id` in the payload) only. */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuid()
  eventId?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Deliveries created at or after.' })
  @OptionalDate()
  from?: Date;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Deliveries created before.' })
  @OptionalDate()
  to?: Date;
}

export class RedeliverWindowDto {
  @ApiProperty({ type: String, format: 'date-time', description: 'Failed deliveries created at or after.' })
  @RequiredDate()
  from: Date;

  @ApiProperty({ type: String, format: 'date-time', description: 'Failed deliveries created before.' })
  @RequiredDate()
  to: Date;
}

export class RedeliveredDto {
  @ApiProperty({ example: 12, description: 'How many deliveries were queued again (now, with a new retry schedule).' })
  requeued: number;
}

export class EventTypeDto {
  @ApiProperty({ example: 'store.purchase_completed' })
  type: string;

  @ApiProperty({ example: 1 })
  version: number;

  @ApiProperty({ example: 'A purchase in the store completed.' })
  description: string;

  @ApiProperty({
    example: { type: 'object' },
    description: 'The JSON Schema of `data` (also in components.schemas as `WebhookEvent_<type>`).',
    type: Object,
  })
  schema: Record<string, unknown>;
}

export class EventTypeListDto {
  @ApiProperty({ type: [EventTypeDto] })
  items: EventTypeDto[];
}
