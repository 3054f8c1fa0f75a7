import { Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { CommonErrors, INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, PageQueryDto, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { QuestEventErrors } from '../quest-events/quest-events.errors.js';
import { ParticipantDto, ParticipantListItemDto, ParticipantRankDto } from './dto/participant.dto.js';
import { ParticipationErrors } from './participation.errors.js';
import { ParticipationService } from './participation.service.js';

const userErrors = [...INPUT_ERRORS, ...SESSION_ERRORS, QuestEventErrors.quest_event_not_found, CommonErrors.internal_error];

const TABLE =
  'Transition table (anything else is 400 `participant_transition`, naming the current status): ' +
  'register: (none) or UNREGISTERED(2) → REGISTERED(1), while registration is open and a seat is free; ' +
  'unregister: REGISTERED → UNREGISTERED, before the start; cancel: REGISTERED → CANCELLED(4), before the end, final, the score leaves the leaderboard; ' +
  'drop (management API): REGISTERED → DROPPED(3), until completion, final. Only REGISTERED participants score, sync, rank and receive tickets.';

@ApiTags('Participation')
@Controller('quest-event/:eventId/participant')
export class ParticipationController {
  constructor(private readonly participation: ParticipationService) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: "The user's participation in an event", description: TABLE })
  @ApiOkResponse({ type: ParticipantDto })
  @ApiErrors(...userErrors, ParticipationErrors.participant_not_found)
  getParticipant(@CurrentUser() user: AuthUser, @Param('eventId') eventId: string): Promise<ParticipantDto> {
    return this.participation.get(user.tenantId, user.id, eventId);
  }

  @Get('list')
  @Authenticated()
  @ApiOperation({ summary: 'REGISTERED participants of an event', description: 'First registered first. Paginated.' })
  @ApiOkResponse({ type: Paginated(ParticipantListItemDto) })
  @ApiErrors(...userErrors)
  listParticipants(
    @CurrentUser() user: AuthUser,
    @Param('eventId') eventId: string,
    @Query() q: PageQueryDto,
  ): Promise<Page<ParticipantListItemDto>> {
    return this.participation.list(user.tenantId, eventId, pageRequest(q));
  }

  @Get('rank')
  @Authenticated()
  @ApiOperation({
    summary: "The user's rank in an event",
    description:
      'Live score and rank on the event leaderboard (same rules as community leaderboards), with two neighbours each side; `rank` null unless REGISTERED with a score > 0. Once the event is completed: the final score and the place in the final standings, as the leaderboard shows them (the ranks the tickets were allocated by).',
  })
  @ApiOkResponse({ type: ParticipantRankDto })
  @ApiErrors(...userErrors, ParticipationErrors.participant_not_found)
  getParticipantRank(@CurrentUser() user: AuthUser, @Param('eventId') eventId: string): Promise<ParticipantRankDto> {
    return this.participation.rank(user.tenantId, user.id, eventId);
  }

  @Post('register')
  @Authenticated()
  @ApiOperation({ summary: 'Register for an event', description: `Members of the event's community only. ${TABLE}` })
  @ApiCreatedResponse({ type: ParticipantDto })
  @ApiErrors(
    ...userErrors,
    ParticipationErrors.participant_transition,
    ParticipationErrors.registration_closed,
    ParticipationErrors.event_full,
    CommunityErrors.not_a_member,
  )
  registerParticipant(@CurrentUser() user: AuthUser, @Param('eventId') eventId: string): Promise<ParticipantDto> {
    return this.participation.register(user.tenantId, user.id, eventId);
  }

  @Put('unregister')
  @Authenticated()
  @ApiOperation({ summary: 'Unregister from an event', description: `Before the start; the user may register again. ${TABLE}` })
  @ApiOkResponse({ type: ParticipantDto })
  @ApiErrors(
    ...userErrors,
    ParticipationErrors.participant_transition,
    ParticipationErrors.event_already_started,
    ParticipationErrors.event_already_ended,
  )
  unregisterParticipant(@CurrentUser() user: AuthUser, @Param('eventId') eventId: string): Promise<ParticipantDto> {
    return this.participation.unregister(user.tenantId, user.id, eventId);
  }

  @Put('cancel')
  @Authenticated()
  @ApiOperation({
    summary: 'Cancel participation',
    description: `Final; before the end; the score is revoked and leaves the leaderboard. ${TABLE}`,
  })
  @ApiOkResponse({ type: ParticipantDto })
  @ApiErrors(...userErrors, ParticipationErrors.participant_transition, ParticipationErrors.event_already_ended)
  cancelParticipation(@CurrentUser() user: AuthUser, @Param('eventId') eventId: string): Promise<ParticipantDto> {
    return this.participation.cancel(user.tenantId, user.id, eventId);
  }

  @Get('sync')
  @Authenticated()
  @ApiOperation({
    summary: "Sync the user's score",
    description:
      "REGISTERED only: copies the earned amount of the event's scoped resource into the participant's score and returns the participation. Idempotent; frozen after completion.",
  })
  @ApiOkResponse({ type: ParticipantDto })
  @ApiErrors(
    ...userErrors,
    ParticipationErrors.participant_not_found,
    ParticipationErrors.participant_transition,
    ParticipationErrors.event_already_ended,
  )
  syncParticipant(@CurrentUser() user: AuthUser, @Param('eventId') eventId: string): Promise<ParticipantDto> {
    return this.participation.sync(user.tenantId, user.id, eventId);
  }
}
