import { Injectable } from '@nestjs/common';
import type { AvatarDto, NftMetadataDto } from '../dto/inventory.dto.js';
import { AvatarViews } from './avatar-views.js';
import { RequestAvatarMint } from './request-avatar-mint.js';

/** The avatar, its public NFT metadata, and mint requests, as the inventory controller calls them. */
@Injectable()
export class AvatarMintService {
  constructor(
    private readonly views: AvatarViews,
    private readonly requests: RequestAvatarMint,
  ) {}

  avatar(tenantId: string, ckey: string, userId: string): Promise<AvatarDto> {
    return this.views.avatar(tenantId, ckey, userId);
  }

  requestMint(tenantId: string, ckey: string, userId: string, blockchain: string): Promise<void> {
    return this.requests.requestMint(tenantId, ckey, userId, blockchain);
  }

  metadata(tenantId: string, ckey: string, mintId: string): Promise<NftMetadataDto> {
    return this.views.metadata(tenantId, ckey, mintId);
  }
}
