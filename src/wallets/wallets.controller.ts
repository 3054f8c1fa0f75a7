import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { WalletDto } from './dto/wallet.dto.js';
import { WalletsService } from './wallets.service.js';
import { WalletErrors } from './wallets.errors.js';

@ApiTags('Socials and wallet')
@Controller('user')
export class WalletsController {
  constructor(private readonly wallets: WalletsService) {}

  @Get('wallet')
  @Authenticated()
  @ApiOperation({
    summary: 'The user wallet',
    description:
      'The first wallet of the user: created by their first zkLogin (a Sui zkLogin address linked to that provider) or SIWE login (the signing address on the message chain).',
  })
  @ApiOkResponse({ type: WalletDto })
  @ApiErrors(...SESSION_ERRORS, WalletErrors.wallet_not_found)
  getWallet(@CurrentUser() user: AuthUser): Promise<WalletDto> {
    return this.wallets.getUserWalletDto(user.tenantId, user.id);
  }
}
