import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, API_KEY_ERRORS } from '../common/errors/error-catalog.js';
import { QuestEventErrors } from '../quest-events/quest-events.errors.js';
import { DropParticipantDto, ParticipantDto } from './dto/participant.dto.js';
import { ParticipationErrors } from './participation.errors.js';
import { ParticipationService } from './participation.service.js';

@ApiTags('Management')
@Controller('admin/quest-events')
export class ParticipationAdminController {
  constructor(private readonly participation: ParticipationService) {}

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
