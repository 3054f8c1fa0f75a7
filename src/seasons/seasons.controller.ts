import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { CommonErrors, INPUT_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { ResourceErrors } from '../resources/resources.errors.js';
import { TenantErrors } from '../tenants/tenants.errors.js';
import { SeasonDto, SeasonListQueryDto } from './dto/season.dto.js';
import { SeasonsService } from './seasons.service.js';

const publicErrors = [...INPUT_ERRORS, TenantErrors.tenant_required, TenantErrors.unknown_tenant, CommonErrors.internal_error];

/**
 * A community's seasons (extension). Their boards are read through the interface's ranking routes
 * with `?season=current|<id>`.
 */
@ApiTags('Seasons')
@Controller('community')
export class SeasonsController {
  constructor(private readonly seasons: SeasonsService) {}

  @Get(':id/seasons')
  @Public()
  @ApiOperation({
    summary: "A community's seasons (extension)",
    description:
      "Time-boxed leaderboards of a resource: upcoming, live, closing (ended, rewards being paid) and closed ones, the latest first (upcoming: the soonest first). Read a season's board with `GET /v1/community/{id}/leaderboard/{slug}?season=<id>` (or `current`), and a player's place with the ranking route.",
  })
  @ApiOkResponse({ type: Paginated(SeasonDto) })
  @ApiErrors(...publicErrors, CommunityErrors.community_not_found, ResourceErrors.resource_type_not_found)
  listSeasons(@TenantId() tenantId: string, @Param('id') id: string, @Query() q: SeasonListQueryDto): Promise<Page<SeasonDto>> {
    return this.seasons.list(tenantId, id, q, pageRequest(q));
  }

  @Get(':id/seasons/:seasonId')
  @Public()
  @ApiOperation({
    summary: 'One season of a community (extension)',
    description: 'Its window, what it counts, its rank rewards and, once closed, how many players its final standings hold.',
  })
  @ApiOkResponse({ type: SeasonDto })
  @ApiErrors(...publicErrors, CommunityErrors.community_not_found, ResourceErrors.season_not_found)
  getSeason(@TenantId() tenantId: string, @Param('id') id: string, @Param('seasonId') seasonId: string): Promise<SeasonDto> {
    return this.seasons.get(tenantId, id, seasonId);
  }
}
