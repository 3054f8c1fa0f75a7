import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor, ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { API_KEY_ERRORS, INPUT_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { InventoryErrors } from '../inventory/inventory.errors.js';
import { GameEventsResultDto, PostGameEventsDto } from './dto/game-event.dto.js';
import { CreateQuestTaskDto, QuestTaskDto, UpdateQuestTaskDto } from './dto/quest-task.dto.js';
import { PlatformCredentialDto, ReviewResultDto, ReviewSubmissionDto, SubmissionDto, SubmissionQueryDto } from './dto/quest-review.dto.js';
import { QUEST_PLATFORMS, type QuestPlatform } from './entities/quest-platform-credential.entity.js';
import { GameEventsService } from './game-events/game-events.service.js';
import { QuestPlatformsService } from './platforms/quest-platforms.service.js';
import { QuestErrors } from './quests.errors.js';
import { ReviewSubmission } from './review/review-submission.js';
import { SubmissionQueue } from './review/submission-queue.js';
import { QuestTasksService } from './tasks/quest-tasks.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { CommonErrors } from '../common/errors/error-catalog.js';

const adminErrors = [...INPUT_ERRORS, ...API_KEY_ERRORS];

@ApiTags('Management')
@Controller('admin/quests/:questId/tasks')
export class QuestTasksAdminController {
  constructor(private readonly tasks: QuestTasksService) {}

  @Get()
  @ApiKeyAuth()
  @ApiOperation({ summary: "A quest's tasks", description: 'In their order, settings without secrets.' })
  @ApiOkResponse({ type: QuestTaskDto, isArray: true })
  @ApiErrors(...adminErrors, QuestErrors.quest_not_found)
  listQuestTasks(@TenantId() tenantId: string, @Param('questId') questId: string): Promise<QuestTaskDto[]> {
    return this.tasks.list(tenantId, questId);
  }

  @Post()
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Add a task to a quest',
    description:
      "Its kind and that kind's settings under the property of the same name (`answer`, `submission`, `visit`, `social`, `onchain`, `partner`, `gameEvent`, `referrals`, `resource`, `quest`). A quest with tasks is claimed by its players (`POST /v1/quests/{questId}/claim`); the management completion still works. An answer task's answers are stored hashed; a partner task's signing secret is in this answer only (`secret`). At most 20 tasks.",
  })
  @ApiCreatedResponse({ type: QuestTaskDto })
  @ApiErrors(...adminErrors, QuestErrors.quest_not_found, QuestErrors.invalid_task)
  createQuestTask(@TenantId() tenantId: string, @Param('questId') questId: string, @Body() dto: CreateQuestTaskDto): Promise<QuestTaskDto> {
    return this.tasks.create(tenantId, questId, dto);
  }

  @Patch(':taskId')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Update a task',
    description:
      "Title, description, position, and the settings of its kind (they replace the stored ones; an answer task keeps its answers unless new ones are sent, and needs them again to change its normalisation). The kind is fixed. Players' progress stays.",
  })
  @ApiOkResponse({ type: QuestTaskDto })
  @ApiErrors(...adminErrors, QuestErrors.quest_not_found, QuestErrors.task_not_found, QuestErrors.invalid_task)
  updateQuestTask(
    @TenantId() tenantId: string,
    @Param('questId') questId: string,
    @Param('taskId') taskId: string,
    @Body() dto: UpdateQuestTaskDto,
  ): Promise<QuestTaskDto> {
    return this.tasks.update(tenantId, questId, taskId, dto);
  }

  @Post(':taskId/rotate-secret')
  @ApiKeyAuth()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: "A partner task's new signing secret",
    description: 'The old one stops at once; the new one is in this answer only.',
  })
  @ApiOkResponse({ type: QuestTaskDto })
  @ApiErrors(...adminErrors, QuestErrors.quest_not_found, QuestErrors.task_not_found, QuestErrors.invalid_task)
  rotateQuestTaskSecret(
    @TenantId() tenantId: string,
    @Param('questId') questId: string,
    @Param('taskId') taskId: string,
  ): Promise<QuestTaskDto> {
    return this.tasks.rotateSecret(tenantId, questId, taskId);
  }

  @Delete(':taskId')
  @ApiKeyAuth()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Remove a task', description: "Players' progress on it goes with it; completions stay." })
  @ApiNoContentResponse()
  @ApiErrors(...adminErrors, QuestErrors.quest_not_found, QuestErrors.task_not_found)
  deleteQuestTask(@TenantId() tenantId: string, @Param('questId') questId: string, @Param('taskId') taskId: string): Promise<void> {
    return this.tasks.remove(tenantId, questId, taskId);
  }
}

@ApiTags('Management')
@Controller('admin/quest-submissions')
export class QuestSubmissionsAdminController {
  constructor(
    private readonly queue: SubmissionQueue,
    private readonly reviews: ReviewSubmission,
  ) {}

  @Get()
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Submissions to review',
    description: 'Pending ones by default, oldest first, with the quest, task and player. Paginated.',
  })
  @ApiOkResponse({ type: Paginated(SubmissionDto) })
  @ApiErrors(...adminErrors)
  listQuestSubmissions(@TenantId() tenantId: string, @Query() q: SubmissionQueryDto): Promise<Page<SubmissionDto>> {
    return this.queue.page(tenantId, q, pageRequest(q));
  }

  @Post(':submissionId/review')
  @ApiKeyAuth()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Approve or reject a submission',
    description:
      'Approved: the task is done for the player, and the quest completes when every task of that period is. Rejected: `reason` (required) is what the player reads; they may submit again. The player is notified (live on the stream); `quest.submission_reviewed` is an event (webhooks, NATS). A submission decided already is a 404.',
  })
  @ApiOkResponse({ type: ReviewResultDto })
  @ApiErrors(...adminErrors, QuestErrors.submission_not_found, InventoryErrors.supply_exhausted)
  reviewQuestSubmission(
    @TenantId() tenantId: string,
    @Actor() actor: string,
    @Param('submissionId') id: string,
    @Body() dto: ReviewSubmissionDto,
  ): Promise<ReviewResultDto> {
    return this.reviews.review(tenantId, id, dto.approve, dto.reason ?? null, actor);
  }
}

@ApiTags('Management')
@Controller('admin/events')
export class GameEventsAdminController {
  constructor(private readonly events: GameEventsService) {}

  @Post()
  @ApiKeyAuth()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: "Post players' game events",
    description:
      "A game server's batch of what players did (at most 500): what `game_event` tasks count or sum. Each event is stored once per `idempotencyKey` (a batch sent again adds nothing: `duplicates`); events of users the tenant does not have are left out (`unknownUsers`). Players see the progress at their next look at the quest and complete it with a claim.",
  })
  @ApiOkResponse({ type: GameEventsResultDto })
  @ApiErrors(...adminErrors, QuestErrors.invalid_game_events)
  postGameEvents(@TenantId() tenantId: string, @Body() dto: PostGameEventsDto): Promise<GameEventsResultDto> {
    return this.events.ingest(tenantId, dto);
  }
}

@ApiTags('Management')
@Controller('admin/communities/:communityId/quest-platforms')
export class QuestPlatformsAdminController {
  constructor(private readonly platforms: QuestPlatformsService) {}

  @Put(':platform')
  @ApiKeyAuth()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: "Set a community's credential for a platform",
    description:
      '`discord`: the bot token its guild checks use; `x`: the bearer token of its follow checks. Stored encrypted, never shown again.',
  })
  @ApiNoContentResponse()
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found)
  async setQuestPlatform(
    @TenantId() tenantId: string,
    @Param('communityId') communityId: string,
    @Param('platform') platform: string,
    @Body() dto: PlatformCredentialDto,
  ): Promise<void> {
    await this.platforms.set(tenantId, communityId, platformOf(platform), dto.token);
  }

  @Delete(':platform')
  @ApiKeyAuth()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: "Remove a community's platform credential" })
  @ApiNoContentResponse()
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found, QuestErrors.platform_not_configured)
  async deleteQuestPlatform(
    @TenantId() tenantId: string,
    @Param('communityId') communityId: string,
    @Param('platform') platform: string,
  ): Promise<void> {
    await this.platforms.remove(tenantId, communityId, platformOf(platform));
  }
}

function platformOf(value: string): QuestPlatform {
  if (!(QUEST_PLATFORMS as readonly string[]).includes(value))
    throw new DomainError(CommonErrors.validation_failed, `platform must be one of ${QUEST_PLATFORMS.join(', ')}`, {
      fields: ['platform'],
    });
  return value as QuestPlatform;
}
