import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public, TenantId } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { CommonErrors, INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { TenantErrors } from '../tenants/tenants.errors.js';
import { CommunityRankingService } from './community-ranking.service.js';
import { LeaderboardEntryDto, LeaderboardQueryDto, RankingDto, RankingQueryDto } from './dto/ranking.dto.js';
import { ResourceErrors } from './resources.errors.js';

const publicErrors = [...INPUT_ERRORS, TenantErrors.tenant_required, TenantErrors.unknown_tenant, CommonErrors.internal_error];
const userErrors = [...INPUT_ERRORS, ...SESSION_ERRORS, CommonErrors.internal_error];

/** A community's rankings and leaderboards (under /community, served by the module that owns the ledger). */
@ApiTags('Community')
@Controller('community')
export class CommunityRankingController {
  constructor(private readonly rankings: CommunityRankingService) {}

  @Get(':id/ranking/:slug')
  @Authenticated()
  @ApiOperation({
    summary: "The current user's ranking for a resource",
    description:
      'Rank, earned amount, spendable balance and neighbours for the resource type `slug` (or id) of the community `id` (id or slug). Equal amounts share a rank; `rank` is null while the user has earned nothing.',
  })
  @ApiOkResponse({ type: RankingDto })
  @ApiErrors(...userErrors, CommunityErrors.community_not_found, ResourceErrors.resource_type_not_found, ResourceErrors.season_not_found)
  getCommunityRanking(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('slug') slug: string,
    @Query() q: RankingQueryDto,
  ): Promise<RankingDto> {
    return this.rankings.userRanking(user.tenantId, id, slug, user.id, q.neighbours ?? 2, q.season);
  }

  @Get(':id/leaderboard/:slug')
  @Public()
  @ApiOperation({
    summary: 'The leaderboard of a resource',
    description:
      'Users with an earned amount > 0, highest first. Equal amounts share a rank (1, 2, 2, 4) and are listed by who reached the amount first, then by user id. Paginated.',
  })
  @ApiOkResponse({ type: Paginated(LeaderboardEntryDto) })
  @ApiErrors(...publicErrors, CommunityErrors.community_not_found, ResourceErrors.resource_type_not_found, ResourceErrors.season_not_found)
  getCommunityLeaderboard(
    @TenantId() tenantId: string,
    @Param('id') id: string,
    @Param('slug') slug: string,
    @Query() q: LeaderboardQueryDto,
  ): Promise<Page<LeaderboardEntryDto>> {
    return this.rankings.leaderboard(tenantId, id, slug, pageRequest(q), q.season);
  }
}
