import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error.js';
import { UsersService } from '../../users/users.service.js';
import { WalletsService } from '../../wallets/wallets.service.js';
import { InventoryErrors } from '../inventory.errors.js';
import { BlockchainsService } from './blockchains.service.js';

/** Where a mint goes: an enabled chain, the user's EVM wallet on it, and the user the token names. */
@Injectable()
export class MintRecipients {
  constructor(
    private readonly blockchains: BlockchainsService,
    private readonly wallets: WalletsService,
    private readonly users: UsersService,
  ) {}

  /** The chain `blockchain` (enabled), the user's EVM wallet (409 `no_suitable_wallet` without one) and the user. */
  async of(tenantId: string, userId: string, blockchain: string) {
    const chain = this.blockchains.enabled(blockchain);
    const wallet = await this.wallets.findEvmWallet(tenantId, userId);
    if (!wallet)
      throw new DomainError(
        InventoryErrors.no_suitable_wallet,
        `You have no EVM wallet to receive a token on ${chain.name}: sign in with Ethereum (SIWE) first`,
      );
    const user = await this.users.findById(tenantId, userId);
    if (!user) throw new Error('the session user does not exist');
    return { chain, wallet, user };
  }
}
