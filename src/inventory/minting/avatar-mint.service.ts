import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { AppConfig } from '../../config/app-config.js';
import { CommunitiesService, UUID_RE } from '../../communities/communities.service.js';
import { WalletsService } from '../../wallets/wallets.service.js';
import type { AvatarDto, AvatarMintDto, NftMetadataDto } from '../dto/inventory.dto.js';
import { AvatarMint, type AvatarSnapshot } from '../entities/avatar-mint.entity.js';
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
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly communities: CommunitiesService,
    private readonly inventory: InventoryService,
    private readonly wallets: WalletsService,
    private readonly blockchains: BlockchainsService,
    private readonly worker: MintWorker,
  ) {}

  /** The avatar of `userId`: every slot with its item, the version, and the mints (latest first). */
  async avatar(tenantId: string, ckey: string, userId: string): Promise<AvatarDto> {
    const { community, slots } = await this.inventory.userSlots(tenantId, ckey, userId);
    const rows: { version: number; updated_at: Date }[] = await this.dataSource.query(
      'SELECT version, updated_at FROM avatars WHERE tenant_id = $1 AND community_id = $2 AND user_id = $3',
      [tenantId, community.id, userId],
    );
    const mints = await this.dataSource
      .getRepository(AvatarMint)
      .find({ where: { tenantId, communityId: community.id, userId }, order: { createdAt: 'DESC', id: 'DESC' }, take: 20 });
    const dtos = mints.map(toMintDto);
    return {
      communityId: community.id,
      userId,
      version: rows[0]?.version ?? 0,
      updatedAt: rows[0]?.updated_at ?? null,
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
    const [user]: { handle: string }[] = await this.dataSource.query('SELECT handle FROM users WHERE id = $1 AND tenant_id = $2', [
      userId,
      tenantId,
    ]);
    if (!user) throw new Error('the session user does not exist');

    await this.dataSource.transaction(async (em) => {
      const avatars: { version: number }[] = await em.query(
        'SELECT version FROM avatars WHERE community_id = $1 AND user_id = $2 FOR UPDATE',
        [community.id, userId],
      );
      // Read the allocation again under the lock: the snapshot must be of the version it names.
      const { slots: locked } = await this.inventory.userSlots(tenantId, community.id, userId);
      const filled = locked.filter((s) => s.item !== null);
      if (avatars.length === 0 || filled.length === 0)
        throw new DomainError(InventoryErrors.avatar_empty, 'Allocate at least one item before minting your avatar');
      const version = avatars[0].version;
      const image = filled.find((s) => s.item?.imageUrl)?.item?.imageUrl ?? community.imageUrl ?? null;
      const metadata: AvatarSnapshot = {
        name: `${user.handle} in ${community.name} (v${version})`,
        description: `The avatar of ${user.handle} in ${community.name}, version ${version}.`,
        image,
        attributes: filled.map((s) => ({ trait_type: s.name, value: s.item!.name })),
      };
      const id = randomUUID();
      const now = this.clock.now();
      const inserted: { id: string }[] = await em.query(
        `INSERT INTO avatar_mints (id, tenant_id, community_id, user_id, blockchain, chain_id, contract_address, recipient, avatar_version, token_id, token_uri, metadata, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'pending', 0, $13, $13, $13)
         ON CONFLICT (community_id, user_id, blockchain, avatar_version) DO NOTHING RETURNING id`,
        [
          id,
          tenantId,
          community.id,
          userId,
          chain.name,
          chain.chainId,
          chain.contractAddress,
          wallet.address,
          version,
          tokenIdForMint(id),
          this.tokenUri(tenantId, community.id, id),
          JSON.stringify(metadata),
          now,
        ],
      );
      if (inserted.length > 0) return;
      const [, requeued]: [unknown[], number] = await em.query(
        `UPDATE avatar_mints SET status = 'pending', attempts = 0, next_attempt_at = $5, last_error = NULL, updated_at = $5
         WHERE community_id = $1 AND user_id = $2 AND blockchain = $3 AND avatar_version = $4 AND status = 'failed'`,
        [community.id, userId, chain.name, version, now],
      );
      if (requeued === 0)
        throw new DomainError(
          InventoryErrors.avatar_already_minted,
          `Version ${version} of your avatar is already minted (or being minted) on ${chain.name}; change the avatar to mint again`,
        );
    });
    this.worker.kick();
  }

  /** The public token URI of a mint job. */
  private tokenUri(tenantId: string, communityId: string, mintId: string): string {
    return `${this.config.PUBLIC_BASE_URL}/v1/community/${communityId}/inventory/nft/${tenantId}/${mintId}`;
  }

  /** ERC-721 metadata of a mint job (the avatar as it was when the mint was requested). */
  async metadata(tenantId: string, ckey: string, mintId: string): Promise<NftMetadataDto> {
    const community = await this.communities.resolve(tenantId, ckey);
    const mint = UUID_RE.test(mintId)
      ? await this.dataSource.getRepository(AvatarMint).findOneBy({ tenantId, communityId: community.id, id: mintId.toLowerCase() })
      : null;
    if (!mint) throw new DomainError(InventoryErrors.mint_not_found, `No avatar mint ${mintId.slice(0, 64)} in this community`);
    const m = mint.metadata;
    return { name: m.name, description: m.description, ...(m.image ? { image: m.image } : {}), attributes: m.attributes };
  }
}
