import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, API_KEY_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, PageQueryDto, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunitiesService } from './communities.service.js';
import { CommunityErrors } from './communities.errors.js';
import { CommunityDto, CreateCommunityDto, UpdateCommunityDto } from './dto/community.dto.js';
import { CommunityMemberDto, CommunityMembersQueryDto } from './dto/membership.dto.js';

const adminErrors = [...INPUT_ERRORS, ...API_KEY_ERRORS];

@ApiTags('Management')
@Controller('admin/communities')
export class CommunitiesAdminController {
  constructor(private readonly communities: CommunitiesService) {}

  @Post()
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Create a community', description: "In the API key's tenant." })
  @ApiCreatedResponse({ type: CommunityDto })
  @ApiErrors(...adminErrors, CommunityErrors.invalid_community_slug, CommunityErrors.community_slug_taken)
  createCommunity(@TenantId() tenantId: string, @Body() dto: CreateCommunityDto): Promise<CommunityDto> {
    return this.communities.create(tenantId, dto);
  }

  @Get()
  @ApiKeyAuth()
  @ApiOperation({ summary: 'List the communities of the tenant', description: 'Oldest first. Paginated.' })
  @ApiOkResponse({ type: Paginated(CommunityDto) })
  @ApiErrors(...adminErrors)
  listAdminCommunities(@TenantId() tenantId: string, @Query() q: PageQueryDto): Promise<Page<CommunityDto>> {
    return this.communities.list(tenantId, pageRequest(q));
  }

  @Get(':communityId')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'A community of the tenant', description: 'By id or slug.' })
  @ApiOkResponse({ type: CommunityDto })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found)
  getAdminCommunity(@TenantId() tenantId: string, @Param('communityId') communityId: string): Promise<CommunityDto> {
    return this.communities.get(tenantId, communityId);
  }

  @Patch(':communityId')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Update a community', description: 'Any of slug, name, description, images and links.' })
  @ApiOkResponse({ type: CommunityDto })
  @ApiErrors(
    ...adminErrors,
    CommunityErrors.community_not_found,
    CommunityErrors.invalid_community_slug,
    CommunityErrors.community_slug_taken,
  )
  updateCommunity(
    @TenantId() tenantId: string,
    @Param('communityId') communityId: string,
    @Body() dto: UpdateCommunityDto,
  ): Promise<CommunityDto> {
    return this.communities.update(tenantId, communityId, dto);
  }

  @Get(':communityId/members')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'The members of a community',
    description: 'Newest first; `query` keeps those whose handle or display name contains it (any case). Paginated.',
  })
  @ApiOkResponse({ type: Paginated(CommunityMemberDto) })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found)
  listCommunityMembers(
    @TenantId() tenantId: string,
    @Param('communityId') communityId: string,
    @Query() q: CommunityMembersQueryDto,
  ): Promise<Page<CommunityMemberDto>> {
    return this.communities.members(tenantId, communityId, q.query ?? '', pageRequest(q));
  }
}
