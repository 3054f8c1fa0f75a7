import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error.js';
import { idOf } from '../../common/validation/uuid.js';
import { CommunitiesService } from '../../communities/communities.service.js';
import { AvatarMintRepository } from '../avatar-mint.repository.js';
import { AvatarRepository } from '../avatar.repository.js';
import type { AvatarDto, AvatarMintDto, NftMetadataDto } from '../dto/inventory.dto.js';
import type { AvatarMint } from '../entities/avatar-mint.entity.js';
import { InventoryErrors } from '../inventory.errors.js';
import { InventoryService } from '../inventory.service.js';

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

/** What is read of avatars and their mints: the avatar with its mints, and a token's public metadata. */
@Injectable()
export class AvatarViews {
  constructor(
    private readonly mints: AvatarMintRepository,
    private readonly avatars: AvatarRepository,
    private readonly inventory: InventoryService,
    private readonly communities: CommunitiesService,
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

  /** ERC-721 metadata of a mint job (the avatar as it was when the mint was requested). */
  async metadata(tenantId: string, ckey: string, mintId: string): Promise<NftMetadataDto> {
    const community = await this.communities.resolve(tenantId, ckey);
    const id = idOf(mintId);
    const mint = id ? await this.mints.findById(tenantId, community.id, id) : null;
    if (!mint) throw new DomainError(InventoryErrors.mint_not_found, `No avatar mint ${mintId.slice(0, 64)} in this community`);
    const m = mint.metadata;
    return { name: m.name, description: m.description, ...(m.image ? { image: m.image } : {}), attributes: m.attributes };
  }
}
