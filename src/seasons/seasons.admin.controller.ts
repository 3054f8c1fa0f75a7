import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { API_KEY_ERRORS, INPUT_ERRORS } from '../common/errors/error-catalog.js';
import { PageQueryDto, Paginated, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { ResourceErrors } from '../resources/resources.errors.js';
import {
  AdminScheduleListQueryDto,
  AdminSeasonDto,
  AdminSeasonListQueryDto,
  CreateSeasonDto,
  CreateSeasonScheduleDto,
  SeasonDto,
  SeasonPayoutDto,
  SeasonScheduleDto,
  UpdateSeasonScheduleDto,
} from './dto/season.dto.js';
import { SeasonErrors } from './seasons.errors.js';
import { SeasonsService } from './seasons.service.js';

const adminErrors = [...INPUT_ERRORS, ...API_KEY_ERRORS];

/** Seasons and their schedules (extension of the management API). */
@ApiTags('Management')
@Controller('admin')
export class SeasonsAdminController {
  constructor(private readonly seasons: SeasonsService) {}

  @Post('seasons')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Define a season (extension)',
    description:
      'A time-boxed leaderboard of a resource type: what players earn in [startsAt, endsAt) (optionally only from some ledger reasons or quests) is ranked on its own board. `startsAt` may not be in the past (earnings count as they are written, there is no backfill). When it ends, its final standings are frozen (ties go to who reached the score first) and its rank rewards paid once each, with a `season_reward` notification.',
  })
  @ApiCreatedResponse({ type: AdminSeasonDto })
  @ApiErrors(...adminErrors, SeasonErrors.invalid_season, CommunityErrors.community_not_found, ResourceErrors.resource_type_not_found)
  createSeason(@TenantId() tenantId: string, @Body() dto: CreateSeasonDto): Promise<AdminSeasonDto> {
    return this.seasons.createSeason(tenantId, dto);
  }

  @Get('seasons')
  @ApiKeyAuth()
  @ApiOperation({ summary: "A community's seasons (extension)", description: 'As the public list.' })
  @ApiOkResponse({ type: Paginated(SeasonDto) })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found, ResourceErrors.resource_type_not_found)
  adminListSeasons(@TenantId() tenantId: string, @Query() q: AdminSeasonListQueryDto): Promise<Page<SeasonDto>> {
    return this.seasons.list(tenantId, q.communityId, q, pageRequest(q));
  }

  @Get('seasons/:seasonId')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'A season and how far its closing went (extension)',
    description: 'Frozen at, paid through (the last final place paid), rewards paid and refused.',
  })
  @ApiOkResponse({ type: AdminSeasonDto })
  @ApiErrors(...adminErrors, ResourceErrors.season_not_found)
  adminGetSeason(@TenantId() tenantId: string, @Param('seasonId') seasonId: string): Promise<AdminSeasonDto> {
    return this.seasons.adminGet(tenantId, seasonId);
  }

  @Get('seasons/:seasonId/payouts')
  @ApiKeyAuth()
  @ApiOperation({
    summary: "A season's payouts (extension)",
    description:
      'The rank rewards paid (or refused) when it closed, in final-place order: one line per player and reward. Its final standings are `GET /v1/admin/resources/leaderboard?season=<id>`.',
  })
  @ApiOkResponse({ type: Paginated(SeasonPayoutDto) })
  @ApiErrors(...adminErrors, ResourceErrors.season_not_found)
  listSeasonPayouts(
    @TenantId() tenantId: string,
    @Param('seasonId') seasonId: string,
    @Query() q: PageQueryDto,
  ): Promise<Page<SeasonPayoutDto>> {
    return this.seasons.payouts(tenantId, seasonId, pageRequest(q));
  }

  @Post('season-schedules')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Define recurring seasons (extension)',
    description:
      'Each occurrence of `cron` in `timeZone` ends a season and opens the next (at most hourly). The first season opens now and ends at the next occurrence; the season worker opens each next one before it starts.',
  })
  @ApiCreatedResponse({ type: SeasonScheduleDto })
  @ApiErrors(...adminErrors, SeasonErrors.invalid_season, CommunityErrors.community_not_found, ResourceErrors.resource_type_not_found)
  createSchedule(@TenantId() tenantId: string, @Body() dto: CreateSeasonScheduleDto): Promise<SeasonScheduleDto> {
    return this.seasons.createSchedule(tenantId, dto);
  }

  @Get('season-schedules')
  @ApiKeyAuth()
  @ApiOperation({ summary: "A community's season schedules (extension)" })
  @ApiOkResponse({ type: Paginated(SeasonScheduleDto) })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found)
  listSchedules(@TenantId() tenantId: string, @Query() q: AdminScheduleListQueryDto): Promise<Page<SeasonScheduleDto>> {
    return this.seasons.listSchedules(tenantId, q.communityId, pageRequest(q));
  }

  @Patch('season-schedules/:scheduleId')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Change or stop a season schedule (extension)',
    description: 'Name, rewards (of the seasons it opens from now on), or `active: false` to open no further season.',
  })
  @ApiOkResponse({ type: SeasonScheduleDto })
  @ApiErrors(...adminErrors, SeasonErrors.invalid_season, SeasonErrors.season_schedule_not_found)
  updateSchedule(
    @TenantId() tenantId: string,
    @Param('scheduleId') scheduleId: string,
    @Body() dto: UpdateSeasonScheduleDto,
  ): Promise<SeasonScheduleDto> {
    return this.seasons.updateSchedule(tenantId, scheduleId, dto);
  }
}
