import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, API_KEY_ERRORS } from '../common/errors/error-catalog.js';
import { AdminUserDto } from './dto/admin-user.dto.js';
import { UserErrors } from './users.errors.js';
import { UsersService } from './users.service.js';

@ApiTags('Management')
@Controller('admin/users')
export class UsersAdminController {
  constructor(private readonly users: UsersService) {}

  @Get(':user')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'A user of the tenant', description: 'By id or handle (any case): who it is, for support.' })
  @ApiOkResponse({ type: AdminUserDto })
  @ApiErrors(...INPUT_ERRORS, ...API_KEY_ERRORS, UserErrors.user_not_found)
  getAdminUser(@TenantId() tenantId: string, @Param('user') ref: string): Promise<AdminUserDto> {
    return this.users.getAdmin(tenantId, ref);
  }
}
