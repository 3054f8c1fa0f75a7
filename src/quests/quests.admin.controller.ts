import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, API_KEY_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { InventoryErrors } from '../inventory/inventory.errors.js';
import { QuestEventErrors } from '../quest-events/quest-events.errors.js';
import { UserErrors } from '../users/users.errors.js';
import { AdminQuestListQueryDto, CompleteQuestDto, CreateQuestDto, QuestCompletionDto, QuestDto, UpdateQuestDto } from './dto/quest.dto.js';
import { QuestErrors } from './quests.errors.js';
import { QuestsService } from './quests.service.js';

const adminErrors = [...INPUT_ERRORS, ...API_KEY_ERRORS];

@ApiTags('Management')
@Controller('admin/quests')
export class QuestsAdminController {
  constructor(private readonly quests: QuestsService) {}

  @Post()
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Create a quest',
    description:
      'In a community, optionally in one of its quest events. Rewards must name resource types or items of the community; a scoped resource type only in a quest of the event it is bound to.',
  })
  @ApiCreatedResponse({ type: QuestDto })
  @ApiErrors(
    ...adminErrors,
    CommunityErrors.community_not_found,
    QuestEventErrors.quest_event_not_found,
    QuestErrors.invalid_quest,
    QuestErrors.scoped_reward_outside_event,
  )
  createQuest(@TenantId() tenantId: string, @Body() dto: CreateQuestDto): Promise<QuestDto> {
    return this.quests.create(tenantId, dto);
  }

  @Get()
  @ApiKeyAuth()
  @ApiOperation({ summary: 'All quests of a community', description: 'Every status, oldest first. Paginated.' })
  @ApiOkResponse({ type: Paginated(QuestDto) })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found)
  listAdminQuests(@TenantId() tenantId: string, @Query() q: AdminQuestListQueryDto): Promise<Page<QuestDto>> {
    return this.quests.listAdmin(tenantId, q.communityId, pageRequest(q));
  }

  @Get(':questId')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'A quest' })
  @ApiOkResponse({ type: QuestDto })
  @ApiErrors(...adminErrors, QuestErrors.quest_not_found)
  getAdminQuest(@TenantId() tenantId: string, @Param('questId') questId: string): Promise<QuestDto> {
    return this.quests.getAdmin(tenantId, questId);
  }

  @Patch(':questId')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Update a quest', description: 'Community and event are fixed.' })
  @ApiOkResponse({ type: QuestDto })
  @ApiErrors(...adminErrors, QuestErrors.quest_not_found, QuestErrors.invalid_quest, QuestErrors.scoped_reward_outside_event)
  updateQuest(@TenantId() tenantId: string, @Param('questId') questId: string, @Body() dto: UpdateQuestDto): Promise<QuestDto> {
    return this.quests.update(tenantId, questId, dto);
  }

  @Post(':questId/completions')
  @ApiKeyAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Record that a user completed a quest',
    description:
      'Credits the rewards exactly once per user (`created: false` and nothing credited on a repeat). Event quests need the event active and the user REGISTERED; they update the score.',
  })
  @ApiOkResponse({ type: QuestCompletionDto })
  @ApiErrors(
    ...adminErrors,
    QuestErrors.quest_not_found,
    QuestErrors.quest_not_completable,
    UserErrors.user_not_found,
    InventoryErrors.supply_exhausted,
  )
  completeQuest(
    @TenantId() tenantId: string,
    @Param('questId') questId: string,
    @Body() dto: CompleteQuestDto,
  ): Promise<QuestCompletionDto> {
    return this.quests.complete(tenantId, questId, dto.userId);
  }
}
