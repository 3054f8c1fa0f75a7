import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public, TenantId } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { TenantErrors } from '../tenants/tenants.errors.js';
import { UserErrors } from '../users/users.errors.js';
import { ProfileDto, ProfileQueryDto, PublicProfileParamDto, PublicProfileQueryDto, UpdateProfileDto } from './dto/profile.dto.js';
import { PublicProfileDto, ReferralDto } from './dto/public-profile.dto.js';
import { ProfileErrors } from './profile.errors.js';
import { ProfileService } from './profile.service.js';

@ApiTags('Profile')
@Controller('user')
export class ProfileController {
  constructor(private readonly profiles: ProfileService) {}

  @Get('profile')
  @Authenticated()
  @ApiOperation({
    summary: "The current user's profile, limited to the requested fields",
    description:
      'Only the fields named in `fields` are returned: `id`, `username`, `handle`, `displayName`, `biography`, `dateOfBirth` (`{year, month, day}`), `address`, `socials`, `createdAt`. An unknown field is a 400.',
  })
  @ApiOkResponse({ type: ProfileDto })
  @ApiErrors(...INPUT_ERRORS, ...SESSION_ERRORS)
  getProfile(@CurrentUser() user: AuthUser, @Query() q: ProfileQueryDto): Promise<ProfileDto> {
    return this.profiles.getProfile(user.tenantId, user.id, q.fields);
  }

  @Post('profile')
  @Authenticated()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: "Update the current user's profile",
    description:
      "Absent fields are kept; `null` clears `displayName`, `biography`, `dateOfBirth` or `address`. `handle` is unique in the tenant (409) and may not read as one the tenant reserves (`handle_reserved`: staff names such as admin or support, the tenant's name). `dateOfBirth` is a real date before today (UTC), from 1900 on. `biography` at most 1000 characters. Returns the whole profile.",
  })
  @ApiOkResponse({ type: ProfileDto })
  @ApiErrors(...INPUT_ERRORS, ProfileErrors.invalid_date_of_birth, ...SESSION_ERRORS, UserErrors.handle_taken, UserErrors.handle_reserved)
  updateProfile(@CurrentUser() user: AuthUser, @Body() dto: UpdateProfileDto): Promise<ProfileDto> {
    return this.profiles.updateProfile(user.tenantId, user.id, dto);
  }

  @Get('by-id/:username/public')
  @Public()
  @ApiOperation({
    summary: "A user's public profile in a community",
    description:
      "`{username}` is the user's login username, handle or user id (case-insensitive; a handle wins over another user's username). The username is matched, never shown. Shows the handle, display name, avatar, public socials, and XP and rank in the community `containerId` (id or slug). Never email, address, date of birth, username or tokens.",
  })
  @ApiOkResponse({ type: PublicProfileDto })
  @ApiErrors(
    ...INPUT_ERRORS,
    TenantErrors.tenant_required,
    TenantErrors.unknown_tenant,
    ProfileErrors.profile_user_not_found,
    CommunityErrors.community_not_found,
  )
  getPublicProfile(
    @TenantId() tenantId: string,
    @Param() p: PublicProfileParamDto,
    @Query() q: PublicProfileQueryDto,
  ): Promise<PublicProfileDto> {
    return this.profiles.getPublicProfile(tenantId, p.username, q.containerId);
  }

  @Get('referrals')
  @Authenticated()
  @ApiOperation({
    summary: 'Users the current user referred',
    description:
      'Sign-up referrals (`communityId` null) and community joins, newest first. A user referred at sign-up and into a community appears once per scope.',
  })
  @ApiOkResponse({ type: ReferralDto, isArray: true })
  @ApiErrors(...SESSION_ERRORS)
  listReferrals(@CurrentUser() user: AuthUser): Promise<ReferralDto[]> {
    return this.profiles.listReferrals(user.tenantId, user.id);
  }
}
