import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { AppConfig } from '../../config/app-config.js';
import { Metrics } from '../../observability/metrics.js';
import { CommunitiesService, UUID_RE } from '../../communities/communities.service.js';
import { UsersService } from '../../users/users.service.js';
import { WalletsService } from '../../wallets/wallets.service.js';
import type { AvatarDto, AvatarMintDto, NftMetadataDto } from '../dto/inventory.dto.js';
import type { AvatarMint, AvatarSnapshot } from '../entities/avatar-mint.entity.js';
import { AvatarMintRepository } from '../avatar-mint.repository.js';
import { AvatarRepository } from '../avatar.repository.js';
import { InventoryErrors } from '../inventory.errors.js';
import { InventoryService } from '../inventory.service.js';
import { tokenIdForMint } from './avatar-contract.js';
import { BlockchainsService } from './blockchains.service.js';
import { MintWorker } from './mint-worker.js';

export function toMintDto(m: AvatarMint): AvatarMintDto {
  return {
    id: m.id,
    blockchain: m.blockchain,
    chainId: m.chainId,
    contractAddress: m.contractAddress,
    recipient: m.recipient,
    avatarVersion: m.avatarVersion,
    status: m.status,
    tokenId: m.tokenId,
    txHash: m.status === 'minted' ? m.txHash : null,
    metadataUrl: m.tokenUri,
    error: m.status === 'minted' ? null : m.lastError,
    attempts: m.attempts,
    requestedAt: m.createdAt,
    mintedAt: m.mintedAt,
  };
}

/** The avatar, its public NFT metadata, and mint requests. */
@Injectable()
export class AvatarMintService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly mints: AvatarMintRepository,
    private readonly avatars: AvatarRepository,
    private readonly users: UsersService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly communities: CommunitiesService,
    private readonly inventory: InventoryService,
    private readonly wallets: WalletsService,
    private readonly blockchains: BlockchainsService,
    private readonly worker: MintWorker,
    private readonly metrics: Metrics,
  ) {}

  /** The avatar of `userId`: every slot with its item, the version, and the mints (latest first). */
  async avatar(tenantId: string, ckey: string, userId: string): Promise<AvatarDto> {
    const { community, slots } = await this.inventory.userSlots(tenantId, ckey, userId);
    const avatar = await this.avatars.find(tenantId, community.id, userId);
    const mints = await this.mints.latest(tenantId, community.id, userId);
    const dtos = mints.map(toMintDto);
    return {
      communityId: community.id,
      userId,
      version: avatar?.version ?? 0,
      updatedAt: avatar?.updated_at ?? null,
      slots,
      mint: dtos[0] ?? null,
      mints: dtos,
    };
  }

  /**
   * Queues a mint of the user's current avatar on `blockchain` and returns once the job is stored
   * (the worker sends it). Rule: one token per avatar version and blockchain; a second request for
   * the same version is 409 `avatar_already_minted` unless the first failed, in which case the
   * same job (same token id) is queued again.
   */
  async requestMint(tenantId: string, ckey: string, userId: string, blockchain: string): Promise<void> {
    const community = await this.communities.resolve(tenantId, ckey);
    const chain = this.blockchains.enabled(blockchain);
    const wallet = await this.wallets.findEvmWallet(tenantId, userId);
    if (!wallet)
      throw new DomainError(
        InventoryErrors.no_suitable_wallet,
        `You have no EVM wallet to receive a token on ${chain.name}: sign in with Ethereum (SIWE) first`,
      );
    const user = await this.users.findById(tenantId, userId);
    if (!user) throw new Error('the session user does not exist');

    await this.dataSource.transaction(async (em) => {
      const version = await this.avatars.lock(tenantId, community.id, userId, em);
      // Read the allocation again under the lock: the snapshot must be of the version it names.
      const { slots: locked } = await this.inventory.userSlots(tenantId, community.id, userId);
      const filled = locked.filter((s) => s.item !== null);
      if (version === null || filled.length === 0)
        throw new DomainError(InventoryErrors.avatar_empty, 'Allocate at least one item before minting your avatar');
      const image = filled.find((s) => s.item?.imageUrl)?.item?.imageUrl ?? community.imageUrl ?? null;
      const metadata: AvatarSnapshot = {
        name: `${user.handle} in ${community.name} (v${version})`,
        description: `The avatar of ${user.handle} in ${community.name}, version ${version}.`,
        image,
        attributes: filled.map((s) => ({ trait_type: s.name, value: s.item!.name })),
      };
      const id = randomUUID();
      const now = this.clock.now();
      const inserted = await this.mints.insert(
        tenantId,
        {
          id,
          communityId: community.id,
          userId,
          blockchain: chain.name,
          chainId: chain.chainId,
          contractAddress: chain.contractAddress,
          recipient: wallet.address,
          avatarVersion: version,
          tokenId: tokenIdForMint(id),
          tokenUri: this.tokenUri(tenantId, community.id, id),
          metadata,
          now,
        },
        em,
      );
      if (inserted) return;
      const requeued = await this.mints.requeueFailed(tenantId, community.id, userId, chain.name, version, now, em);
      if (!requeued)
        throw new DomainError(
          InventoryErrors.avatar_already_minted,
          `Version ${version} of your avatar is already minted (or being minted) on ${chain.name}; change the avatar to mint again`,
        );
    });
    this.metrics.mintJob('requested');
    this.worker.kick();
  }

  /** The public token URI of a mint job. */
  private tokenUri(tenantId: string, communityId: string, mintId: string): string {
    return `${this.config.PUBLIC_BASE_URL}/v1/community/${communityId}/inventory/nft/${tenantId}/${mintId}`;
  }

  /** ERC-721 metadata of a mint job (the avatar as it was when the mint was requested). */
  async metadata(tenantId: string, ckey: string, mintId: string): Promise<NftMetadataDto> {
    const community = await this.communities.resolve(tenantId, ckey);
    const mint = UUID_RE.test(mintId) ? await this.mints.findById(tenantId, community.id, mintId.toLowerCase()) : null;
    if (!mint) throw new DomainError(InventoryErrors.mint_not_found, `No avatar mint ${mintId.slice(0, 64)} in this community`);
    const m = mint.metadata;
    return { name: m.name, description: m.description, ...(m.image ? { image: m.image } : {}), attributes: m.attributes };
  }
}
