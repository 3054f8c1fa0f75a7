import { Controller, Headers, HttpCode, HttpStatus, type MessageEvent, Post, Query, Sse, SseSignal } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Observable } from 'rxjs';
import { AcceptsUrlCredential } from '../access/url-credentials.js';
import { Authenticated, CurrentUser } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { CommonErrors, INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { NotificationDto } from './dto/notification.dto.js';
import { NotificationStreamQueryDto, StreamTicketDto } from './dto/stream.dto.js';
import { NotificationErrors } from './notifications.errors.js';
import { NotificationStreamsService, STREAM_BATCH, STREAM_RETRY_MS } from './stream/notification-streams.service.js';
import { STREAM_TICKET_PARAM, STREAM_TICKET_TTL_SECONDS, StreamTicketsService } from './stream/stream-tickets.service.js';

/** Characters of events that may wait for a client that does not read before its connection is dropped (it resumes from its last id). */
export const SSE_MAX_PENDING = 2 * 1024 * 1024;

const STREAM_FORMAT = [
  'Server-Sent Events (`text/event-stream`, what a browser `EventSource` reads). Events:',
  '',
  `- \`notification\`: \`data\` is one notification as JSON, the same shape as the items of \`GET /v1/user/notifications\` (\`NotificationDto\`). Sent the moment the transaction that wrote it commits, whichever instance wrote it; account-wide and every community's.`,
  `- \`ready\`: the stream is live; \`data\` \`{"replayed": n}\`, how many missed notifications were sent before it. Carries \`retry: ${STREAM_RETRY_MS}\` (ms before an EventSource reconnects).`,
  `- \`reset\`: the client missed more than ${STREAM_BATCH} notifications; \`data\` \`{"reason":"too_many_missed","limit":${STREAM_BATCH}}\`. Reload the list with \`GET /v1/user/notifications\`; the stream goes on from now.`,
  '- `session_ended`: the session was ended (logout, user deleted); the stream closes. Log in again.',
  '- a comment line `: heartbeat` after every NOTIFICATION_STREAM_HEARTBEAT_MS (15 s) without an event.',
  '',
  'Every event has an `id`, an opaque cursor (at most 8192 characters). On reconnecting, an EventSource sends the last one as `Last-Event-ID` and receives exactly the notifications it missed, oldest first, then `ready`. A new EventSource can pass it as `?lastEventId=`. Without one the stream starts at the moment it opens.',
  '',
  "Credentials: `Authorization: Bearer <session token>`, or `?ticket=` from `POST /v1/user/notifications/stream-ticket` (browsers). Refusals (401, 400, 429, 503) are ordinary JSON error answers, before any event. The stream stays open while the session lasts; it is not bound to the session token's 10 minutes. Extension, not in the interface.",
].join('\n');

/** The live notification stream (extension): SSE and the tickets browsers open it with. */
@ApiTags('Notifications')
@ApiExtraModels(NotificationDto)
@Controller('user/notifications')
export class NotificationsStreamController {
  constructor(
    private readonly streams: NotificationStreamsService,
    private readonly tickets: StreamTicketsService,
  ) {}

  @Sse('stream', { maxPendingDataLength: SSE_MAX_PENDING })
  @Authenticated()
  @AcceptsUrlCredential(STREAM_TICKET_PARAM)
  @ApiOperation({ summary: "The current user's notifications, live (extension)", description: STREAM_FORMAT })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The `id` of the last event received: resume after it.' })
  @ApiOkResponse({
    description: "An event stream (see above); each `notification` event's `data` is a `NotificationDto`.",
    content: {
      'text/event-stream': {
        schema: { type: 'string', description: `\`data\` of a \`notification\` event: ${getSchemaPath(NotificationDto)}` },
        example:
          'event: notification\nid: 1203:1207:1205\ndata: {"id":"0d3c1e8a-7c43-4a8e-9a36-2f4f7d6f2b10","type":"purchase_completed","title":"You bought Golden Sword","data":{"purchaseId":"…","listingId":"…"},"communityId":"…","read":false,"readAt":null,"createdAt":"2026-05-01T12:00:00.000Z"}\n\n' +
          `event: ready\nid: 1207:1207:\nretry: ${STREAM_RETRY_MS}\ndata: {"replayed":1}\n\n: heartbeat\n\n`,
      },
    },
  })
  @ApiErrors(
    ...INPUT_ERRORS,
    NotificationErrors.last_event_id_invalid,
    ...SESSION_ERRORS,
    NotificationErrors.stream_ticket_invalid,
    NotificationErrors.stream_limit_reached,
    NotificationErrors.stream_capacity_reached,
    CommonErrors.service_unavailable,
  )
  streamNotifications(
    @CurrentUser() user: AuthUser,
    @Query() q: NotificationStreamQueryDto,
    @Headers('last-event-id') lastEventId: string | undefined,
    @SseSignal() signal: AbortSignal,
  ): Promise<Observable<MessageEvent>> {
    return this.streams.openStream(user, lastEventId ?? q.lastEventId, signal);
  }

  @Post('stream-ticket')
  @Authenticated()
  @HttpCode(HttpStatus.CREATED)
  @ApiOperation({
    summary: 'A ticket to open the notification stream from a browser (extension)',
    description: `For \`new EventSource('/v1/user/notifications/stream?ticket=…')\`, which cannot send the session token: valid once, within ${STREAM_TICKET_TTL_SECONDS} s, for the session that asked for it. Ask for a new one before each (re)connection.`,
  })
  @ApiCreatedResponse({ type: StreamTicketDto })
  @ApiErrors(...SESSION_ERRORS)
  async streamTicket(@CurrentUser() user: AuthUser): Promise<StreamTicketDto> {
    const { ticket, expiresAt } = await this.tickets.issue(user);
    return { ticket, expiresAt: expiresAt.toISOString() };
  }
}
