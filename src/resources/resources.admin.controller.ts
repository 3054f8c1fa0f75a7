import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, API_KEY_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { UserErrors } from '../users/users.errors.js';
import {
  BalanceDto,
  BalancesQueryDto,
  DeductResourceDto,
  GrantResourceDto,
  LedgerEntryDto,
  LedgerQueryDto,
  LedgerResultDto,
} from './dto/ledger.dto.js';
import {
  AdminEarnedPerDayQueryDto,
  AdminLeaderboardQueryDto,
  AdminRankingQueryDto,
  AdminResourceTypesQueryDto,
  EarnedPerDayDto,
} from './dto/admin-ranking.dto.js';
import { LeaderboardEntryDto, RankingDto } from './dto/ranking.dto.js';
import { CreateResourceTypeDto, ResourceTypeDto, UpdateResourceTypeDto } from './dto/resource-type.dto.js';
import { CommunityRankingService } from './community-ranking.service.js';
import { LedgerService } from './ledger.service.js';
import { ResourceErrors } from './resources.errors.js';
import { ResourcesService } from './resources.service.js';

const adminErrors = [...INPUT_ERRORS, ...API_KEY_ERRORS];

@ApiTags('Management')
@Controller('admin/resources')
export class ResourcesAdminController {
  constructor(
    private readonly resources: ResourcesService,
    private readonly ledger: LedgerService,
    private readonly rankings: CommunityRankingService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Post('types')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Create a resource type',
    description: "In a community of the API key's tenant (id or slug). Slug, kind and community are fixed once created.",
  })
  @ApiCreatedResponse({ type: ResourceTypeDto })
  @ApiErrors(
    ...adminErrors,
    ResourceErrors.invalid_resource_type,
    CommunityErrors.community_not_found,
    ResourceErrors.resource_type_slug_taken,
  )
  createResourceType(@TenantId() tenantId: string, @Body() dto: CreateResourceTypeDto): Promise<ResourceTypeDto> {
    return this.resources.createType(tenantId, dto);
  }

  @Get('types')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'The resource types of a community', description: 'Community by id or slug. Oldest first. Paginated.' })
  @ApiOkResponse({ type: Paginated(ResourceTypeDto) })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found)
  listAdminResourceTypes(@TenantId() tenantId: string, @Query() q: AdminResourceTypesQueryDto): Promise<Page<ResourceTypeDto>> {
    return this.resources.listTypes(tenantId, q.communityId, pageRequest(q));
  }

  @Get('leaderboard')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'The leaderboard of a resource of a community',
    description:
      'The same ranking as the public leaderboard (`/v1/community/{id}/leaderboard/{slug}`), with `season` too (a closed season: its final standings). Paginated.',
  })
  @ApiOkResponse({ type: Paginated(LeaderboardEntryDto) })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found, ResourceErrors.resource_type_not_found, ResourceErrors.season_not_found)
  getAdminLeaderboard(@TenantId() tenantId: string, @Query() q: AdminLeaderboardQueryDto): Promise<Page<LeaderboardEntryDto>> {
    return this.rankings.leaderboard(tenantId, q.communityId, q.resourceType, pageRequest(q), q.season);
  }

  @Get('earned-per-day')
  @ApiKeyAuth()
  @ApiOperation({
    summary: "A community's earnings of a resource per day (extension)",
    description:
      'For each UTC day of the last `days` (today included, the oldest first): what players earned of the resource (the positive changes of their earned totals, from every reason) and how many earned some.',
  })
  @ApiOkResponse({ type: EarnedPerDayDto })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found, ResourceErrors.resource_type_not_found)
  getEarnedPerDay(@TenantId() tenantId: string, @Query() q: AdminEarnedPerDayQueryDto): Promise<EarnedPerDayDto> {
    return this.resources.earnedPerDay(tenantId, q.communityId, q.resourceType, q.days ?? 30);
  }

  @Get('ranking')
  @ApiKeyAuth()
  @ApiOperation({
    summary: "A user's ranking for a resource of a community",
    description: 'Rank, earned amount, balance and neighbours, as the user sees them (`/v1/community/{id}/ranking/{slug}`).',
  })
  @ApiOkResponse({ type: RankingDto })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found, ResourceErrors.resource_type_not_found)
  getAdminRanking(@TenantId() tenantId: string, @Query() q: AdminRankingQueryDto): Promise<RankingDto> {
    return this.rankings.userRanking(tenantId, q.communityId, q.resourceType, q.userId.toLowerCase(), q.neighbours ?? 2);
  }

  @Patch('types/:resourceTypeId')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Update a resource type', description: 'Name, description and image.' })
  @ApiOkResponse({ type: ResourceTypeDto })
  @ApiErrors(...adminErrors, ResourceErrors.resource_type_not_found)
  updateResourceType(
    @TenantId() tenantId: string,
    @Param('resourceTypeId') id: string,
    @Body() dto: UpdateResourceTypeDto,
  ): Promise<ResourceTypeDto> {
    return this.resources.updateType(tenantId, id, dto);
  }

  @Post('grants')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Grant a resource to a user',
    description:
      'Credits the spendable balance and the earned total (rank). Idempotent by `idempotencyKey` (unique per tenant): a retry changes nothing and returns the original entry with `replayed: true`.',
  })
  @ApiCreatedResponse({ type: LedgerResultDto })
  @ApiErrors(
    ...adminErrors,
    UserErrors.user_not_found,
    ResourceErrors.resource_type_not_found,
    ResourceErrors.idempotency_key_reused,
    ResourceErrors.amount_too_large,
  )
  grantResource(@TenantId() tenantId: string, @Body() dto: GrantResourceDto): Promise<LedgerResultDto> {
    return this.ledger.credit(this.dataSource.manager, { tenantId, ...dto });
  }

  @Post('deductions')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Deduct a resource from a user',
    description:
      'Lowers the spendable balance, never below zero (409 `insufficient_balance`). With `lowerEarned: true` it lowers the earned total (rank) too. Idempotent like grants.',
  })
  @ApiCreatedResponse({ type: LedgerResultDto })
  @ApiErrors(
    ...adminErrors,
    UserErrors.user_not_found,
    ResourceErrors.resource_type_not_found,
    ResourceErrors.insufficient_balance,
    ResourceErrors.idempotency_key_reused,
  )
  deductResource(@TenantId() tenantId: string, @Body() dto: DeductResourceDto): Promise<LedgerResultDto> {
    return this.ledger.debit(this.dataSource.manager, { tenantId, ...dto });
  }

  @Get('balances')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Balances of a user',
    description: 'Every resource the user holds, with spendable `balance` and `earned` total.',
  })
  @ApiOkResponse({ type: BalanceDto, isArray: true })
  @ApiErrors(...adminErrors, UserErrors.user_not_found)
  listUserBalances(@TenantId() tenantId: string, @Query() q: BalancesQueryDto): Promise<BalanceDto[]> {
    return this.resources.balances(tenantId, q.userId);
  }

  @Get('ledger')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Ledger entries of a user', description: 'Newest first, optionally for one resource type.' })
  @ApiOkResponse({ type: Paginated(LedgerEntryDto) })
  @ApiErrors(...adminErrors, UserErrors.user_not_found)
  listLedgerEntries(@TenantId() tenantId: string, @Query() q: LedgerQueryDto): Promise<Page<LedgerEntryDto>> {
    return this.resources.ledgerEntries(tenantId, q.userId, q.resourceTypeId, pageRequest(q));
  }
}
