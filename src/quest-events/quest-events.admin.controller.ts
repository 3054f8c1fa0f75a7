import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, API_KEY_ERRORS } from '../common/errors/error-catalog.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { Paginated, PageQueryDto, pageRequest, type Page } from '../common/pagination/pagination.js';
import {
  AdminQuestEventsQueryDto,
  CloseQuestEventResultDto,
  CreateQuestEventDto,
  QuestEventDto,
  UpdateQuestEventDto,
} from './dto/quest-event.dto.js';
import { AdminRewardAllocationDto, CreateRewardDto, RewardDto } from './dto/reward.dto.js';
import { CLOSE_STEPS_MS, EventCompletionService } from './event-completion.service.js';
import { QuestEventErrors } from './quest-events.errors.js';
import { QuestEventsService } from './quest-events.service.js';
import { RewardsService } from './rewards.service.js';

const adminErrors = [...INPUT_ERRORS, ...API_KEY_ERRORS];

@ApiTags('Management')
@Controller('admin/quest-events')
export class QuestEventsAdminController {
  constructor(
    private readonly events: QuestEventsService,
    private readonly completion: EventCompletionService,
    private readonly rewards: RewardsService,
  ) {}

  @Post()
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Create a quest event',
    description:
      'Published unless `publish: false` (a draft, invisible to users). Times must be ordered: registration start < registration end <= end, registration start <= start < end.',
  })
  @ApiCreatedResponse({ type: QuestEventDto })
  @ApiErrors(
    ...adminErrors,
    CommunityErrors.community_not_found,
    QuestEventErrors.invalid_quest_event,
    QuestEventErrors.quest_event_slug_taken,
  )
  createQuestEvent(@TenantId() tenantId: string, @Body() dto: CreateQuestEventDto): Promise<QuestEventDto> {
    return this.events.create(tenantId, dto);
  }

  @Get()
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'List the quest events of the tenant',
    description: 'Drafts included, latest start first; optionally of one community and in one status. Paginated.',
  })
  @ApiOkResponse({ type: Paginated(QuestEventDto) })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found)
  listAdminQuestEvents(@TenantId() tenantId: string, @Query() q: AdminQuestEventsQueryDto): Promise<Page<QuestEventDto>> {
    return this.events.listAdmin(tenantId, q);
  }

  @Get(':eventId')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'A quest event (drafts included)' })
  @ApiOkResponse({ type: QuestEventDto })
  @ApiErrors(...adminErrors, QuestEventErrors.quest_event_not_found)
  getAdminQuestEvent(@TenantId() tenantId: string, @Param('eventId') eventId: string): Promise<QuestEventDto> {
    return this.events.getAdmin(tenantId, eventId);
  }

  @Patch(':eventId')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Update a quest event',
    description:
      'While it is a draft or published and not ended. `publish: true` publishes a draft. Once a published event has started, `startsAt` may only stay or move earlier (400 `start_already_passed` otherwise).',
  })
  @ApiOkResponse({ type: QuestEventDto })
  @ApiErrors(
    ...adminErrors,
    QuestEventErrors.quest_event_not_found,
    QuestEventErrors.invalid_quest_event,
    QuestEventErrors.quest_event_state,
    QuestEventErrors.start_already_passed,
  )
  updateQuestEvent(
    @TenantId() tenantId: string,
    @Param('eventId') eventId: string,
    @Body() dto: UpdateQuestEventDto,
  ): Promise<QuestEventDto> {
    return this.events.update(tenantId, eventId, dto);
  }

  @Post(':eventId/cancel')
  @ApiKeyAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a quest event',
    description: `Any event not completed or being completed; nothing is allocated. Its REGISTERED participants are told (\`event_cancelled\`) in batches: this call tells them for up to ${CLOSE_STEPS_MS / 1000} s before it answers, and the worker tells the rest of a larger event.`,
  })
  @ApiOkResponse({ type: QuestEventDto })
  @ApiErrors(...adminErrors, QuestEventErrors.quest_event_not_found, QuestEventErrors.quest_event_state)
  async cancelQuestEvent(@TenantId() tenantId: string, @Param('eventId') eventId: string): Promise<QuestEventDto> {
    const cancelled = await this.events.cancel(tenantId, eventId);
    await this.completion.tellCancelled(cancelled.id);
    return cancelled;
  }

  @Post(':eventId/close')
  @ApiKeyAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Complete a quest event now',
    description: `Allowed once the event has started (early close) or ended. Allocates tickets to eligible REGISTERED participants exactly once: a repeated or concurrent call answers \`completedNow: false\` and changes nothing. The completion works through the participants in batches (\`QUEST_EVENT_COMPLETION_BATCH\` per transaction); this call goes on with them for up to ${CLOSE_STEPS_MS / 1000} s, and the completion worker finishes a larger event within its next passes: until then the answer's \`event.status\` is \`ended\` (no participant can change any more) and \`allocationsCreated\` counts the allocations made so far by this call. \`completed\` means every final score, ticket and notice is written.`,
  })
  @ApiOkResponse({ type: CloseQuestEventResultDto })
  @ApiErrors(...adminErrors, QuestEventErrors.quest_event_not_found, QuestEventErrors.quest_event_state)
  async closeQuestEvent(@TenantId() tenantId: string, @Param('eventId') eventId: string): Promise<CloseQuestEventResultDto> {
    const event = await this.events.resolve(tenantId, eventId, { includeDrafts: true });
    const r = await this.completion.complete(tenantId, event.id, true);
    return { event: this.events.toDto(r.event), completedNow: r.completedNow, allocationsCreated: r.allocationsCreated };
  }

  @Post(':eventId/rewards')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Add a reward to a quest event',
    description:
      'Before the event is completed or cancelled. A `resource` reward pays in a global resource type of the community, never a scoped one. `ticketCost` must not be above `tickets` (both default to 1).',
  })
  @ApiCreatedResponse({ type: RewardDto })
  @ApiErrors(
    ...adminErrors,
    QuestEventErrors.quest_event_not_found,
    QuestEventErrors.quest_event_state,
    QuestEventErrors.invalid_reward,
    QuestEventErrors.scoped_event_reward,
    QuestEventErrors.ticket_cost_above_tickets,
  )
  createQuestEventReward(
    @TenantId() tenantId: string,
    @Param('eventId') eventId: string,
    @Body() dto: CreateRewardDto,
  ): Promise<RewardDto> {
    return this.rewards.createReward(tenantId, eventId, dto);
  }

  @Get(':eventId/rewards')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'The rewards of a quest event' })
  @ApiOkResponse({ type: RewardDto, isArray: true })
  @ApiErrors(...adminErrors, QuestEventErrors.quest_event_not_found)
  listQuestEventRewards(@TenantId() tenantId: string, @Param('eventId') eventId: string): Promise<RewardDto[]> {
    return this.rewards.listRewards(tenantId, eventId);
  }

  @Get(':eventId/allocations')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'The reward allocations of a quest event',
    description: "Every participant's tickets, made when the event completed; best rank first. Paginated.",
  })
  @ApiOkResponse({ type: Paginated(AdminRewardAllocationDto) })
  @ApiErrors(...adminErrors, QuestEventErrors.quest_event_not_found)
  listQuestEventAllocations(
    @TenantId() tenantId: string,
    @Param('eventId') eventId: string,
    @Query() q: PageQueryDto,
  ): Promise<Page<AdminRewardAllocationDto>> {
    return this.rewards.eventAllocations(tenantId, eventId, pageRequest(q));
  }
}
