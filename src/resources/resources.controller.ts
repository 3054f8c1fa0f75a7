import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { CommonErrors, INPUT_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, PageQueryDto, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { TenantErrors } from '../tenants/tenants.errors.js';
import { ResourceTypeDto } from './dto/resource-type.dto.js';
import { ResourceErrors } from './resources.errors.js';
import { ResourcesService, toResourceTypeDto } from './resources.service.js';

const publicErrors = [...INPUT_ERRORS, TenantErrors.tenant_required, TenantErrors.unknown_tenant, CommonErrors.internal_error];

@ApiTags('Resources')
@Controller('community')
export class ResourcesController {
  constructor(private readonly resources: ResourcesService) {}

  @Get('resource-types/:resourceTypeId')
  @Public()
  @ApiOperation({ summary: 'A resource type', description: 'A global (XP) or scoped (quest event) resource type, by id.' })
  @ApiOkResponse({ type: ResourceTypeDto })
  @ApiErrors(...publicErrors, ResourceErrors.resource_type_not_found)
  async getResourceType(@TenantId() tenantId: string, @Param('resourceTypeId') id: string): Promise<ResourceTypeDto> {
    return toResourceTypeDto(await this.resources.getType(tenantId, id));
  }

  @Get(':communityId/resource-types')
  @Public()
  @ApiOperation({
    summary: 'Resource types of a community',
    description: 'Paginated; global types first, then by slug. `communityId` is an id or a slug.',
  })
  @ApiOkResponse({ type: Paginated(ResourceTypeDto) })
  @ApiErrors(...publicErrors, CommunityErrors.community_not_found)
  listCommunityResourceTypes(
    @TenantId() tenantId: string,
    @Param('communityId') communityId: string,
    @Query() q: PageQueryDto,
  ): Promise<Page<ResourceTypeDto>> {
    return this.resources.listTypes(tenantId, communityId, pageRequest(q));
  }
}
