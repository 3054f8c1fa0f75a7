import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RetryAfterInterceptor } from '../auth/throttling/login-throttler.guard.js';
import { Authenticated, CurrentUser, Public } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, type Page, pageRequest } from '../common/pagination/pagination.js';
import { InventoryErrors } from '../inventory/inventory.errors.js';
import { ClaimQuest } from './claims/claim-quest.js';
import { TaskInputs } from './claims/task-inputs.js';
import { VisitTask } from './claims/visit-task.js';
import { QuestHistoryItemDto, QuestHistoryQueryDto, QuestProgressDto } from './dto/quest-play.dto.js';
import { AnswerTaskDto, SubmitTaskDto } from './dto/quest-task.dto.js';
import { QuestErrors } from './quests.errors.js';
import { QuestHistory } from './claims/quest-history.js';

const playErrors = [...INPUT_ERRORS, ...SESSION_ERRORS, QuestErrors.quest_not_found, QuestErrors.claims_limited];

/**
 * Quests players complete themselves (extension): a quest's tasks are checked by the service and
 * its rewards credited when all are done, once per period.
 */
@ApiTags('Quest play')
@Controller('quests')
@UseInterceptors(RetryAfterInterceptor)
export class QuestPlayController {
  constructor(
    private readonly claims: ClaimQuest,
    private readonly inputs: TaskInputs,
    private readonly visits: VisitTask,
  ) {}

  @Get('visits/:link')
  @Public()
  @ApiOperation({
    summary: "Follow a visit task's link",
    description:
      "The link of a visit task, from the quest's progress (`tasks[].visitUrl`): records that the player opened it (in the current period) and redirects (302) to the task's page. The link is the credential (24 h, one player and task): browsers follow it without a session.",
  })
  @ApiFoundResponse({
    description: "Redirect to the task's page.",
    headers: { Location: { description: "The task's page", schema: { type: 'string', format: 'uri' } } },
  })
  @ApiErrors(...INPUT_ERRORS, QuestErrors.visit_link_invalid, QuestErrors.quest_not_found)
  async visitQuestLink(@Param('link') link: string, @Res() res: Response): Promise<void> {
    res.redirect(HttpStatus.FOUND, await this.visits.visit(link));
  }

  @Get(':questId')
  @Authenticated()
  @ApiOperation({
    summary: 'A quest and where the player stands on it',
    description:
      "The current period (in the community's time zone), each task's state, whether the player may claim it (`availability`), this period's completion, the streak. Nothing is checked: `POST .../claim` checks.",
  })
  @ApiOkResponse({ type: QuestProgressDto })
  @ApiErrors(...playErrors)
  getQuestProgress(@CurrentUser() user: AuthUser, @Param('questId') questId: string): Promise<QuestProgressDto> {
    return this.claims.show(user.tenantId, user.id, questId);
  }

  @Post(':questId/claim')
  @Authenticated()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Claim a quest: check its tasks now, complete it when all are done',
    description:
      "Checks every task not done in this period that the service can check (a linked social and its platform, an on-chain holding, the partner's endpoint, game events, referrals, a resource, another quest); answers and submissions are sent to their own routes, visits through their link. When every task is done the quest is completed and its rewards credited, exactly once per period (`completion.created`); otherwise `tasks[].missing` says what is left. A claim of a completed period answers the completion again (`created: false`). 409 `quest_not_claimable` when the player may not claim it now (`details.retryAt` when a time lifts it).",
  })
  @ApiOkResponse({ type: QuestProgressDto })
  @ApiErrors(...playErrors, QuestErrors.quest_not_claimable, QuestErrors.quest_not_completable, InventoryErrors.supply_exhausted)
  claimQuest(@CurrentUser() user: AuthUser, @Param('questId') questId: string): Promise<QuestProgressDto> {
    return this.claims.claim(user.tenantId, user.id, questId);
  }

  @Post(':questId/tasks/:taskId/answer')
  @Authenticated()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Answer an answer task',
    description:
      "One attempt: compared with the task's answers after its normalisation (Unicode, white space, case). Wrong: 400 `wrong_answer` with `details.attemptsLeft` and `details.retryAt`. Right: the task is done and the quest completes when it was the last one. 409 `task_not_open` while the player must wait or has no attempt left in this period.",
  })
  @ApiOkResponse({ type: QuestProgressDto })
  @ApiErrors(
    ...playErrors,
    QuestErrors.task_not_found,
    QuestErrors.task_not_open,
    QuestErrors.wrong_answer,
    QuestErrors.quest_not_claimable,
  )
  answerQuestTask(
    @CurrentUser() user: AuthUser,
    @Param('questId') questId: string,
    @Param('taskId') taskId: string,
    @Body() dto: AnswerTaskDto,
  ): Promise<QuestProgressDto> {
    return this.inputs.answer(user.tenantId, user.id, questId, taskId, dto.answer);
  }

  @Post(':questId/tasks/:taskId/submission')
  @Authenticated()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Submit to a submission task',
    description:
      "A text or an http(s) URL, as the task asks, at most its `maxLength`: held for an operator's review (`pending`) unless the task approves at once. A pending or rejected submission may be replaced; a done task takes none. The player is notified of the review (live on the stream).",
  })
  @ApiOkResponse({ type: QuestProgressDto })
  @ApiErrors(
    ...playErrors,
    QuestErrors.task_not_found,
    QuestErrors.task_not_open,
    QuestErrors.submission_invalid,
    QuestErrors.quest_not_claimable,
  )
  submitQuestTask(
    @CurrentUser() user: AuthUser,
    @Param('questId') questId: string,
    @Param('taskId') taskId: string,
    @Body() dto: SubmitTaskDto,
  ): Promise<QuestProgressDto> {
    return this.inputs.submit(user.tenantId, user.id, questId, taskId, dto.content);
  }
}

@ApiTags('Quest play')
@Controller('user/quest-completions')
export class QuestHistoryController {
  constructor(private readonly history: QuestHistory) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: "The player's completed quests", description: 'Newest first, one item per completed period. Paginated.' })
  @ApiOkResponse({ type: Paginated(QuestHistoryItemDto) })
  @ApiErrors(...INPUT_ERRORS, ...SESSION_ERRORS)
  listQuestCompletions(@CurrentUser() user: AuthUser, @Query() q: QuestHistoryQueryDto): Promise<Page<QuestHistoryItemDto>> {
    return this.history.page(user.tenantId, user.id, pageRequest(q));
  }
}
