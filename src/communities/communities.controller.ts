import { Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Authenticated, CurrentUser, Public, TenantId } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { CommonErrors, INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, PageQueryDto, pageRequest, type Page } from '../common/pagination/pagination.js';
import { TenantErrors } from '../tenants/tenants.errors.js';
import { UserErrors } from '../users/users.errors.js';
import { CommunitiesService } from './communities.service.js';
import { CommunityErrors } from './communities.errors.js';
import { CommunityDto } from './dto/community.dto.js';
import { CommunityReferralDto, JoinCommunityQueryDto, MembershipDto } from './dto/membership.dto.js';

const publicErrors = [...INPUT_ERRORS, TenantErrors.tenant_required, TenantErrors.unknown_tenant, CommonErrors.internal_error];
const userErrors = [...INPUT_ERRORS, ...SESSION_ERRORS, CommonErrors.internal_error];

@ApiTags('Community')
@Controller('community')
export class CommunitiesController {
  constructor(private readonly communities: CommunitiesService) {}

  @Get(':communityId')
  @Public()
  @ApiOperation({ summary: 'A community', description: '`communityId` is the id or the slug.' })
  @ApiOkResponse({ type: CommunityDto })
  @ApiErrors(...publicErrors, CommunityErrors.community_not_found)
  getCommunity(@TenantId() tenantId: string, @Param('communityId') communityId: string): Promise<CommunityDto> {
    return this.communities.get(tenantId, communityId);
  }

  @Post(':communityId/join')
  @Authenticated()
  @ApiOperation({
    summary: 'Join a community',
    description:
      'Idempotent: 201 when the membership is created, 200 (same body, `created: false`) when the user already is a member. `referrerHandle` is required; an empty value means no referrer.',
  })
  @ApiCreatedResponse({ type: MembershipDto, description: 'Joined.' })
  @ApiOkResponse({ type: MembershipDto, description: 'Already a member; nothing changed.' })
  @ApiErrors(...userErrors, UserErrors.self_referral, UserErrors.unknown_referrer, CommunityErrors.community_not_found)
  async joinCommunity(
    @CurrentUser() user: AuthUser,
    @Param('communityId') communityId: string,
    @Query() q: JoinCommunityQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MembershipDto> {
    const membership = await this.communities.join(user.tenantId, communityId, user.id, q.referrerHandle);
    res.status(membership.created ? 201 : 200);
    return membership;
  }

  @Get(':communityId/referrals')
  @Authenticated()
  @ApiOperation({
    summary: "The user's referrals into a community",
    description: 'Members the current user referred into the community, newest first. Paginated.',
  })
  @ApiOkResponse({ type: Paginated(CommunityReferralDto) })
  @ApiErrors(...userErrors, CommunityErrors.community_not_found)
  listCommunityReferrals(
    @CurrentUser() user: AuthUser,
    @Param('communityId') communityId: string,
    @Query() q: PageQueryDto,
  ): Promise<Page<CommunityReferralDto>> {
    return this.communities.referralsOf(user.tenantId, communityId, user.id, pageRequest(q));
  }
}
