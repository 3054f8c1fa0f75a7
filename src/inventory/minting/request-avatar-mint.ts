import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { AppConfig } from '../../config/app-config.js';
import { CommunitiesService } from '../../communities/communities.service.js';
import { AvatarMintRepository } from '../avatar-mint.repository.js';
import { InventoryErrors } from '../inventory.errors.js';
import { tokenIdForMint } from './avatar-contract.js';
import { AvatarSnapshots } from './avatar-snapshots.js';
import { MintRecipients } from './mint-recipients.js';
import { MintWorker } from './mint-worker.js';

/** A mint request: the job stored with the avatar's snapshot, for the worker to send. */
@Injectable()
export class RequestAvatarMint {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly communities: CommunitiesService,
    private readonly recipients: MintRecipients,
    private readonly snapshots: AvatarSnapshots,
    private readonly mints: AvatarMintRepository,
    private readonly worker: MintWorker,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Queues a mint of the user's current avatar on `blockchain` and returns once the job is stored
   * (the worker sends it). Rule: one token per avatar version and blockchain; a second request for
   * the same version is 409 `avatar_already_minted` unless the first failed, in which case the
   * same job (same token id) is queued again.
   */
  async requestMint(tenantId: string, ckey: string, userId: string, blockchain: string): Promise<void> {
    const community = await this.communities.resolve(tenantId, ckey);
    const { chain, wallet, user } = await this.recipients.of(tenantId, userId, blockchain);

    await this.dataSource.transaction(async (em) => {
      const { version, metadata } = await this.snapshots.lockAndDescribe(em, tenantId, community, userId, user.handle);
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
    this.worker.requested();
  }

  /** The public token URI of a mint job. */
  private tokenUri(tenantId: string, communityId: string, mintId: string): string {
    return `${this.config.PUBLIC_BASE_URL}/v1/community/${communityId}/inventory/nft/${tenantId}/${mintId}`;
  }
}
