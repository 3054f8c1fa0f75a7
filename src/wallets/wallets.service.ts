import { Injectable } from '@nestjs/common';
import { computeZkLoginAddress } from '@mysten/sui/zklogin';
import type { EntityManager } from 'typeorm';

import { AppConfig } from '../config/app-config.js';
import { SecretsService } from '../crypto/secrets.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import type { WalletDto } from './dto/wallet.dto.js';
import type { Wallet } from './entities/wallet.entity.js';
import { WalletsRepository } from './wallets.repository.js';
import { UsersService } from '../users/users.service.js';
import { WalletErrors } from './wallets.errors.js';
import { deriveZkLoginSalt } from './zklogin-salt.js';

export const SUI_CHAIN = 'sui';
export const evmChain = (chainId: number) => `evm:${chainId}`;

/** The OAuth account a zkLogin address is computed from. */
export interface ZkLoginAccount {
  iss: string;
  aud: string;
  sub: string;
}

/** Blockchain wallets of users: zkLogin (Sui) addresses and SIWE (EVM) addresses. */
@Injectable()
export class WalletsService {
  constructor(
    private readonly config: AppConfig,
    private readonly secrets: SecretsService,
    private readonly repo: WalletsRepository,
    private readonly users: UsersService,
  ) {}

  private masterSeed(): Promise<Buffer> {
    const configured = this.config.ZKLOGIN_MASTER_SEED ? Buffer.from(this.config.ZKLOGIN_MASTER_SEED, 'hex') : undefined;
    return this.secrets.named('zklogin_master_seed', configured);
  }

  /** The zkLogin address of an identity's OAuth account (the salt is derived, never stored). */
  async zkLoginAddress(tenantId: string, provider: string, subjectId: string, account: ZkLoginAccount): Promise<string> {
    const userSalt = deriveZkLoginSalt(await this.masterSeed(), tenantId, provider, subjectId);
    return computeZkLoginAddress({
      claimName: 'sub',
      claimValue: account.sub,
      iss: account.iss,
      aud: account.aud,
      userSalt,
      legacyAddress: false,
    });
  }

  /** The user's wallet for a provider and chain, inside the caller's transaction. */
  find(em: EntityManager, tenantId: string, userId: string, provider: string, chain: string): Promise<Wallet | null> {
    return this.repo.find(tenantId, userId, provider, chain, em);
  }

  /** Creates the wallet unless the user already has one for that provider and chain; returns the stored one. */
  async ensure(
    em: EntityManager,
    w: Pick<Wallet, 'tenantId' | 'userId' | 'provider' | 'chain' | 'address'> & Partial<Pick<Wallet, 'claimIss' | 'claimAud' | 'claimSub'>>,
  ): Promise<Wallet> {
    await this.repo.insertIgnore({ claimIss: null, claimAud: null, claimSub: null, ...w }, em);
    const stored = await this.find(em, w.tenantId, w.userId, w.provider, w.chain);
    if (!stored) throw new Error('wallet address already belongs to another user');
    return stored;
  }

  /** The EVM wallet (from SIWE) of a user, the earliest when several chains were used; null when none. For NFT minting. */
  findEvmWallet(tenantId: string, userId: string): Promise<Wallet | null> {
    return this.repo.firstEvm(tenantId, userId);
  }

  /** Every wallet of a user, oldest first. */
  listUserWallets(tenantId: string, userId: string): Promise<Wallet[]> {
    return this.repo.ofUser(tenantId, userId);
  }

  /** The user's wallet: the first one created (a zkLogin or SIWE login creates it). 404 when none. */
  async getUserWallet(tenantId: string, userId: string): Promise<Wallet> {
    const [first] = await this.listUserWallets(tenantId, userId);
    if (!first) throw new DomainError(WalletErrors.wallet_not_found, 'You have no wallet yet: log in with zkLogin or SIWE to create one');
    return first;
  }

  async getUserWalletDto(tenantId: string, userId: string): Promise<WalletDto> {
    const w = await this.getUserWallet(tenantId, userId);
    return { address: w.address, chain: w.chain, provider: w.provider, createdAt: w.createdAt.toISOString() };
  }

  /** Every wallet of a player, oldest first (management). 404 for an unknown user; none is an empty list. */
  async adminWallets(tenantId: string, userId: string): Promise<WalletDto[]> {
    await this.users.getById(tenantId, userId);
    const rows = await this.listUserWallets(tenantId, userId);
    return rows.map((w) => ({ address: w.address, chain: w.chain, provider: w.provider, createdAt: w.createdAt.toISOString() }));
  }
}
