import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { CommonErrors, INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, PageQueryDto, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { LeaderboardEntryDto } from '../resources/dto/ranking.dto.js';
import { InventoryErrors } from '../inventory/inventory.errors.js';
import { ListQuestEventsQueryDto, QuestEventDto, QuestEventFilterDto } from './dto/quest-event.dto.js';
import { ClaimRewardDto, RewardAllocationDto, RewardClaimDto } from './dto/reward.dto.js';
import { QuestEventErrors } from './quest-events.errors.js';
import { QuestEventsService } from './quest-events.service.js';
import { RewardsService } from './rewards.service.js';

const userErrors = [...INPUT_ERRORS, ...SESSION_ERRORS, CommonErrors.internal_error];

@ApiTags('Quest events')
@ApiExtraModels(QuestEventFilterDto)
@Controller('quest-event')
export class QuestEventsController {
  constructor(
    private readonly events: QuestEventsService,
    private readonly rewards: RewardsService,
  ) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'Quest events',
    description:
      'Published events (never drafts), earliest start first. `participating` (events the user is REGISTERED in) and `registrationOpen` combine (AND). `filter` is a deepObject: `filter[containerId]=<community id or slug>&filter[features]=a,b&filter[status]=active&filter[status]=completed`. Paginated.',
  })
  @ApiQuery({ name: 'page', required: false, type: Number })
  @ApiQuery({ name: 'limit', required: false, type: Number })
  @ApiQuery({ name: 'participating', required: false, type: Boolean })
  @ApiQuery({ name: 'registrationOpen', required: false, type: Boolean })
  @ApiQuery({ name: 'filter', required: false, style: 'deepObject', explode: true, schema: { $ref: getSchemaPath(QuestEventFilterDto) } })
  @ApiQuery({ name: 'itemId', required: false, type: String, description: 'Events with a reward granting this item.' })
  @ApiQuery({ name: 'resourceId', required: false, type: String, description: 'Events scored with, or rewarding, this resource type.' })
  @ApiOkResponse({ type: Paginated(QuestEventDto) })
  @ApiErrors(...userErrors, CommunityErrors.community_not_found)
  listQuestEvents(@CurrentUser() user: AuthUser, @Query() q: ListQuestEventsQueryDto): Promise<Page<QuestEventDto>> {
    return this.events.list(user.tenantId, user.id, q);
  }

  @Get(':eventId')
  @Authenticated()
  @ApiOperation({
    summary: 'A quest event',
    description: "By id or slug, with its derived status and the current user's participant status.",
  })
  @ApiOkResponse({ type: QuestEventDto })
  @ApiErrors(...userErrors, QuestEventErrors.quest_event_not_found)
  getQuestEvent(@CurrentUser() user: AuthUser, @Param('eventId') eventId: string): Promise<QuestEventDto> {
    return this.events.getForUser(user.tenantId, user.id, eventId);
  }

  @Get(':id/leaderboard')
  @Authenticated()
  @ApiOperation({
    summary: 'The leaderboard of a quest event',
    description:
      "REGISTERED participants by score (the event's scoped resource), highest first; equal scores share a rank (1, 2, 2, 4). Cancelled and dropped participants are not on it. Once the event is completed: its final standings, the participants' final scores (what was earned before the end) ranked as the completion ranked them for its tickets, ties listed by user id; a score of 0 is not on it. Paginated.",
  })
  @ApiOkResponse({ type: Paginated(LeaderboardEntryDto) })
  @ApiErrors(...userErrors, QuestEventErrors.quest_event_not_found)
  getQuestEventLeaderboard(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Query() q: PageQueryDto,
  ): Promise<Page<LeaderboardEntryDto>> {
    return this.events.leaderboard(user.tenantId, id, pageRequest(q));
  }

  @Get(':eventId/reward/allocations')
  @Authenticated()
  @ApiOperation({
    summary: "The user's reward allocations in an event",
    description:
      'One per reward the user was allocated tickets for at completion, with tickets left and the data submitted with the last claim.',
  })
  @ApiOkResponse({ type: RewardAllocationDto, isArray: true })
  @ApiErrors(...userErrors, QuestEventErrors.quest_event_not_found)
  listRewardAllocations(@CurrentUser() user: AuthUser, @Param('eventId') eventId: string): Promise<RewardAllocationDto[]> {
    return this.rewards.allocations(user.tenantId, user.id, eventId);
  }

  @Post(':eventId/reward/allocations/claim/:rewardAllocationId')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Claim a reward with allocated tickets',
    description:
      "Spends the reward's ticket cost from the allocation and takes one unit of its supply, atomically, then credits the resource or grants the item. `email`, `walletAddress` (EIP-55; stored checksummed) and `address` as the reward requires. Another user's allocation is 404; no tickets left or no supply is 400; nothing changes on failure.",
  })
  @ApiOkResponse({ type: RewardClaimDto })
  @ApiErrors(
    ...userErrors,
    QuestEventErrors.quest_event_not_found,
    QuestEventErrors.allocation_not_found,
    QuestEventErrors.not_enough_tickets,
    QuestEventErrors.reward_sold_out,
    QuestEventErrors.claim_requirements,
    InventoryErrors.supply_exhausted,
  )
  claimRewardAllocation(
    @CurrentUser() user: AuthUser,
    @Param('eventId') eventId: string,
    @Param('rewardAllocationId') rewardAllocationId: string,
    @Body() dto: ClaimRewardDto,
  ): Promise<RewardClaimDto> {
    return this.rewards.claim(user.tenantId, user.id, eventId, rewardAllocationId, dto);
  }
}
