import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { CommonErrors, INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { UserErrors } from '../users/users.errors.js';
import { ListQuestsQueryDto, QuestDto, QuestTagDto, QuestTagsQueryDto } from './dto/quest.dto.js';
import { QuestsService } from './quests.service.js';

const userErrors = [...INPUT_ERRORS, ...SESSION_ERRORS, CommunityErrors.community_not_found, CommonErrors.internal_error];

@ApiTags('Community')
@Controller('community/:communityId/quests')
export class QuestsController {
  constructor(private readonly quests: QuestsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'Quests of a community',
    description:
      'Active quests with type, status, tags, rewards and whether the current user completed them; featured first. Every query parameter is required (as in the interface): send an empty value for "no filter" (`tags=&questTypes=&featured=&query=`); `page` and `limit` need numbers. A missing parameter is a 400.',
  })
  @ApiOkResponse({ type: Paginated(QuestDto) })
  @ApiErrors(...userErrors)
  listCommunityQuests(
    @CurrentUser() user: AuthUser,
    @Param('communityId') communityId: string,
    @Query() q: ListQuestsQueryDto,
  ): Promise<Page<QuestDto>> {
    return this.quests.list(user.tenantId, user.id, communityId, q);
  }

  @Get('tags')
  @Authenticated()
  @ApiOperation({
    summary: 'Quest tags of a community with completion statistics',
    description:
      'Tags of the active quests, alphabetical, each with `questCount`, `completedCount` and `availableCount` for `userId` (empty: the current user). Every query parameter is required: booleans take `true`/`false`; `includeRewards` takes `true`, `false` or empty; `userId` a user id or empty.',
  })
  @ApiOkResponse({ type: QuestTagDto, isArray: true })
  @ApiErrors(...userErrors, UserErrors.user_not_found)
  listCommunityQuestTags(
    @CurrentUser() user: AuthUser,
    @Param('communityId') communityId: string,
    @Query() q: QuestTagsQueryDto,
  ): Promise<QuestTagDto[]> {
    return this.quests.tags(user.tenantId, user.id, communityId, q);
  }
}
