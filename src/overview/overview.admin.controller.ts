import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { API_KEY_ERRORS, INPUT_ERRORS } from '../common/errors/error-catalog.js';
import { OverviewDto, OverviewQueryDto } from './dto/overview.dto.js';
import { OverviewService } from './overview.service.js';

@ApiTags('Management')
@Controller('admin/overview')
export class OverviewAdminController {
  constructor(private readonly overview: OverviewService) {}

  @Get()
  @ApiKeyAuth()
  @ApiOperation({
    summary: "The tenant's activity since an instant (the console's overview)",
    description:
      'Counts since `since` (default: 24 hours ago; at most 31 days back): sessions started, new players, grants, purchases, quest completions; and the submissions waiting for a review now.',
  })
  @ApiOkResponse({ type: OverviewDto })
  @ApiErrors(...INPUT_ERRORS, ...API_KEY_ERRORS)
  getOverview(@TenantId() tenantId: string, @Query() q: OverviewQueryDto): Promise<OverviewDto> {
    return this.overview.overview(tenantId, q.since);
  }
}
