import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, API_KEY_ERRORS } from '../common/errors/error-catalog.js';
import { QuestEventErrors } from '../quest-events/quest-events.errors.js';
import { PageQueryDto, Paginated, pageRequest, type Page } from '../common/pagination/pagination.js';
import { AdminUserIdParamDto } from '../users/dto/admin-user.dto.js';
import { UserErrors } from '../users/users.errors.js';
import {
  AdminParticipantDto,
  AdminParticipantsQueryDto,
  AdminUserParticipationDto,
  DropParticipantDto,
  ParticipantDto,
} from './dto/participant.dto.js';
import { ParticipationErrors } from './participation.errors.js';
import { ParticipationService } from './participation.service.js';

@ApiTags('Management')
@Controller('admin/quest-events')
export class ParticipationAdminController {
  constructor(private readonly participation: ParticipationService) {}

  @Get(':eventId/participants')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'The participants of a quest event',
    description: 'In every ParticipantStatus (or the one `status` names), first registered first. Paginated.',
  })
  @ApiOkResponse({ type: Paginated(AdminParticipantDto) })
  @ApiErrors(...INPUT_ERRORS, ...API_KEY_ERRORS, QuestEventErrors.quest_event_not_found)
  listAdminParticipants(
    @TenantId() tenantId: string,
    @Param('eventId') eventId: string,
    @Query() q: AdminParticipantsQueryDto,
  ): Promise<Page<AdminParticipantDto>> {
    return this.participation.listAdmin(tenantId, eventId, q.status ?? null, pageRequest(q));
  }

  @Post(':eventId/participants/drop')
  @ApiKeyAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Drop a participant',
    description:
      'REGISTERED → DROPPED (disqualification, unmet entry requirement), until the event is completed. Final; the score is revoked and leaves the leaderboard. Any other status is 400 `participant_transition`.',
  })
  @ApiOkResponse({ type: ParticipantDto })
  @ApiErrors(
    ...INPUT_ERRORS,
    ...API_KEY_ERRORS,
    QuestEventErrors.quest_event_not_found,
    ParticipationErrors.participant_transition,
    ParticipationErrors.event_already_ended,
  )
  dropParticipant(
    @TenantId() tenantId: string,
    @Param('eventId') eventId: string,
    @Body() dto: DropParticipantDto,
  ): Promise<ParticipantDto> {
    return this.participation.drop(tenantId, eventId, dto.userId.toLowerCase(), dto.reason ?? null);
  }
}

@ApiTags('Management')
@Controller('admin/users')
export class ParticipationUsersAdminController {
  constructor(private readonly participation: ParticipationService) {}

  @Get(':userId/participations')
  @ApiKeyAuth()
  @ApiOperation({
    summary: "A player's event participations (extension)",
    description:
      'Every quest event of the tenant the player registered for, in any ParticipantStatus, with the event and its lifecycle status now; latest registration first. Paginated.',
  })
  @ApiOkResponse({ type: Paginated(AdminUserParticipationDto) })
  @ApiErrors(...INPUT_ERRORS, ...API_KEY_ERRORS, UserErrors.user_not_found)
  listAdminUserParticipations(
    @TenantId() tenantId: string,
    @Param() p: AdminUserIdParamDto,
    @Query() q: PageQueryDto,
  ): Promise<Page<AdminUserParticipationDto>> {
    return this.participation.listOfUser(tenantId, p.userId, pageRequest(q));
  }
}
