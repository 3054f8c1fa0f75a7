import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, API_KEY_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, PageQueryDto, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { UserErrors } from '../users/users.errors.js';
import { AwardPrizeDto, CreatePrizeDto, PrizeAwardResultDto, PrizeDto, PrizeOwnerDto, UpdatePrizeDto } from './dto/prize.dto.js';
import { PrizeErrors } from './prizes.errors.js';
import { PrizesService } from './prizes.service.js';

const adminErrors = [...INPUT_ERRORS, ...API_KEY_ERRORS];

@ApiTags('Management')
@Controller('admin/prizes')
export class PrizesAdminController {
  constructor(private readonly prizes: PrizesService) {}

  @Post()
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Create a prize', description: 'Tenant-wide or in one community; `totalSupply` absent for unlimited.' })
  @ApiCreatedResponse({ type: PrizeDto })
  @ApiErrors(...adminErrors, PrizeErrors.invalid_prize, CommunityErrors.community_not_found)
  createPrize(@TenantId() tenantId: string, @Body() dto: CreatePrizeDto): Promise<PrizeDto> {
    return this.prizes.create(tenantId, dto);
  }

  @Get()
  @ApiKeyAuth()
  @ApiOperation({ summary: 'List the prizes of the tenant', description: 'Oldest first. Paginated.' })
  @ApiOkResponse({ type: Paginated(PrizeDto) })
  @ApiErrors(...adminErrors)
  listAdminPrizes(@TenantId() tenantId: string, @Query() q: PageQueryDto): Promise<Page<PrizeDto>> {
    return this.prizes.list(tenantId, pageRequest(q));
  }

  @Get(':prizeId')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'A prize of the tenant' })
  @ApiOkResponse({ type: PrizeDto })
  @ApiErrors(...adminErrors, PrizeErrors.prize_not_found)
  getAdminPrize(@TenantId() tenantId: string, @Param('prizeId') prizeId: string): Promise<PrizeDto> {
    return this.prizes.get(tenantId, prizeId);
  }

  @Patch(':prizeId')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Update a prize',
    description: 'Name, description, image, requirements and total supply (never below the units awarded).',
  })
  @ApiOkResponse({ type: PrizeDto })
  @ApiErrors(...adminErrors, PrizeErrors.prize_not_found, PrizeErrors.invalid_prize, PrizeErrors.prize_supply_below_awarded)
  updatePrize(@TenantId() tenantId: string, @Param('prizeId') prizeId: string, @Body() dto: UpdatePrizeDto): Promise<PrizeDto> {
    return this.prizes.update(tenantId, prizeId, dto);
  }

  @Get(':prizeId/owners')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Owners of a prize', description: 'Users with their units, earliest first. Paginated.' })
  @ApiOkResponse({ type: Paginated(PrizeOwnerDto) })
  @ApiErrors(...adminErrors, PrizeErrors.prize_not_found)
  listPrizeOwners(@TenantId() tenantId: string, @Param('prizeId') prizeId: string, @Query() q: PageQueryDto): Promise<Page<PrizeOwnerDto>> {
    return this.prizes.owners(tenantId, prizeId, pageRequest(q));
  }

  @Post(':prizeId/awards')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Award a prize to a user',
    description:
      'Never beyond the supply (409 `prize_supply_exhausted`). Idempotent by `idempotencyKey` (unique per tenant): a retry awards nothing and returns the first award with `replayed: true`. The user is notified (`prize_awarded`).',
  })
  @ApiCreatedResponse({ type: PrizeAwardResultDto })
  @ApiErrors(
    ...adminErrors,
    PrizeErrors.prize_not_found,
    UserErrors.user_not_found,
    PrizeErrors.prize_supply_exhausted,
    PrizeErrors.prize_award_key_reused,
  )
  awardPrize(@TenantId() tenantId: string, @Param('prizeId') prizeId: string, @Body() dto: AwardPrizeDto): Promise<PrizeAwardResultDto> {
    return this.prizes.adminAward(tenantId, prizeId, dto);
  }
}
