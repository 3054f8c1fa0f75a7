import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { API_KEY_ERRORS, INPUT_ERRORS } from '../common/errors/error-catalog.js';
import { AdminUserIdParamDto } from '../users/dto/admin-user.dto.js';
import { UserErrors } from '../users/users.errors.js';
import { AdminSocialDto } from './dto/social.dto.js';
import { SocialsService } from './socials.service.js';

@ApiTags('Management')
@Controller('admin/users')
export class SocialsAdminController {
  constructor(private readonly socials: SocialsService) {}

  @Get(':userId/socials')
  @ApiKeyAuth()
  @ApiOperation({
    summary: "A player's linked social accounts (extension)",
    description:
      'Oldest link first: the provider, the account at the provider and when it was linked, for support. No token, nor whether one is stored, nor the provider data given at linking.',
  })
  @ApiOkResponse({ type: AdminSocialDto, isArray: true })
  @ApiErrors(...INPUT_ERRORS, ...API_KEY_ERRORS, UserErrors.user_not_found)
  listAdminUserSocials(@TenantId() tenantId: string, @Param() p: AdminUserIdParamDto): Promise<AdminSocialDto[]> {
    return this.socials.adminSocials(tenantId, p.userId);
  }
}
