import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { CommonErrors, INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, pageRequest, type Page } from '../common/pagination/pagination.js';
import { UserRequirementDto } from '../requirements/dto/requirement.dto.js';
import { PrizeDetailDto, PrizeSupplyDto, PrizesQueryDto, UserPrizeDto } from './dto/prize.dto.js';
import { PrizeErrors } from './prizes.errors.js';
import { PrizesService } from './prizes.service.js';

const userErrors = [...INPUT_ERRORS, ...SESSION_ERRORS, CommonErrors.internal_error];

@ApiTags('Prizes')
@Controller('inventory/prizes')
export class PrizesController {
  constructor(private readonly prizes: PrizesService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'Prizes and achievements',
    description:
      "Every prize of the tenant (`ownedOnly=false`) or only those the current user owns (`ownedOnly=true`), oldest first, with supply and the user's units. Paginated.",
  })
  @ApiOkResponse({ type: Paginated(UserPrizeDto) })
  @ApiErrors(...userErrors)
  listPrizes(@CurrentUser() user: AuthUser, @Query() q: PrizesQueryDto): Promise<Page<UserPrizeDto>> {
    return this.prizes.listForUser(user.tenantId, user.id, q.ownedOnly, pageRequest(q));
  }

  @Get('requirements')
  @Authenticated()
  @ApiOperation({
    summary: 'Requirements of prizes',
    description:
      "The requirement definitions the tenant's prizes ask winners for (e.g. a shipping address), each with the data the current user saved for it (or null).",
  })
  @ApiOkResponse({ type: UserRequirementDto, isArray: true })
  @ApiErrors(...userErrors)
  listPrizeRequirements(@CurrentUser() user: AuthUser): Promise<UserRequirementDto[]> {
    return this.prizes.requirementsForUser(user.tenantId, user.id);
  }

  @Get(':prizeId')
  @Authenticated()
  @ApiOperation({ summary: 'A prize', description: "With supply, the current user's units, the owner count and the first owners." })
  @ApiOkResponse({ type: PrizeDetailDto })
  @ApiErrors(...userErrors, PrizeErrors.prize_not_found)
  getPrize(@CurrentUser() user: AuthUser, @Param('prizeId') prizeId: string): Promise<PrizeDetailDto> {
    return this.prizes.getForUser(user.tenantId, user.id, prizeId);
  }

  @Get(':prizeId/supply')
  @Authenticated()
  @ApiOperation({ summary: 'Supply of a prize', description: 'Total, awarded and remaining units (null total and remaining: unlimited).' })
  @ApiOkResponse({ type: PrizeSupplyDto })
  @ApiErrors(...userErrors, PrizeErrors.prize_not_found)
  getPrizeSupply(@CurrentUser() user: AuthUser, @Param('prizeId') prizeId: string): Promise<PrizeSupplyDto> {
    return this.prizes.supply(user.tenantId, prizeId);
  }
}
