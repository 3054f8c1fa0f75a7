import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { CommonErrors, INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { QuestEventErrors } from '../quest-events/quest-events.errors.js';
import { QuestDto } from './dto/quest.dto.js';
import { QuestsService } from './quests.service.js';

const userErrors = [...INPUT_ERRORS, ...SESSION_ERRORS, CommonErrors.internal_error];

/** The quests of a quest event: served by the quests module, which depends on quest events (not the other way). */
@ApiTags('Quest events')
@Controller('quest-event')
export class QuestEventQuestsController {
  constructor(private readonly quests: QuestsService) {}

  @Get(':id/quests')
  @Authenticated()
  @ApiOperation({
    summary: 'The quests of a quest event',
    description: 'Active quests of the event, oldest first, with whether the current user completed them.',
  })
  @ApiOkResponse({ type: QuestDto, isArray: true })
  @ApiErrors(...userErrors, QuestEventErrors.quest_event_not_found)
  listQuestEventQuests(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<QuestDto[]> {
    return this.quests.eventQuests(user.tenantId, user.id, id);
  }
}
