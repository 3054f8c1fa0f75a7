import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { API_KEY_ERRORS, INPUT_ERRORS } from '../common/errors/error-catalog.js';
import { AdminUserIdParamDto } from '../users/dto/admin-user.dto.js';
import { UserErrors } from '../users/users.errors.js';
import { WalletDto } from './dto/wallet.dto.js';
import { WalletsService } from './wallets.service.js';

@ApiTags('Management')
@Controller('admin/users')
export class WalletsAdminController {
  constructor(private readonly wallets: WalletsService) {}

  @Get(':userId/wallets')
  @ApiKeyAuth()
  @ApiOperation({
    summary: "A player's wallets (extension)",
    description:
      'Oldest first: one per login and chain (zkLogin on `sui`, SIWE on `evm:<chainId>`). An empty list when the player has none.',
  })
  @ApiOkResponse({ type: WalletDto, isArray: true })
  @ApiErrors(...INPUT_ERRORS, ...API_KEY_ERRORS, UserErrors.user_not_found)
  listAdminUserWallets(@TenantId() tenantId: string, @Param() p: AdminUserIdParamDto): Promise<WalletDto[]> {
    return this.wallets.adminWallets(tenantId, p.userId);
  }
}
