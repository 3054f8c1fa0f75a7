import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainError } from '../../common/errors/domain-error.js';
import { AvatarRepository } from '../avatar.repository.js';
import type { AvatarSnapshot } from '../entities/avatar-mint.entity.js';
import { InventoryErrors } from '../inventory.errors.js';
import { InventoryService } from '../inventory.service.js';

/** The avatar as a mint records it: its version, locked, and the NFT metadata of its items. */
@Injectable()
export class AvatarSnapshots {
  constructor(
    private readonly avatars: AvatarRepository,
    private readonly inventory: InventoryService,
  ) {}

  /** Locks the avatar row in `em`'s transaction and describes the version it holds (409 `avatar_empty` with no item). */
  async lockAndDescribe(
    em: EntityManager,
    tenantId: string,
    community: { id: string; name: string; imageUrl: string | null },
    userId: string,
    handle: string,
  ): Promise<{ version: number; metadata: AvatarSnapshot }> {
    const version = await this.avatars.lock(tenantId, community.id, userId, em);
    // Read the allocation again under the lock: the snapshot must be of the version it names.
    const { slots: locked } = await this.inventory.userSlots(tenantId, community.id, userId);
    const filled = locked.filter((s) => s.item !== null);
    if (version === null || filled.length === 0)
      throw new DomainError(InventoryErrors.avatar_empty, 'Allocate at least one item before minting your avatar');
    const image = filled.find((s) => s.item?.imageUrl)?.item?.imageUrl ?? community.imageUrl ?? null;
    const metadata: AvatarSnapshot = {
      name: `${handle} in ${community.name} (v${version})`,
      description: `The avatar of ${handle} in ${community.name}, version ${version}.`,
      image,
      attributes: filled.map((s) => ({ trait_type: s.name, value: s.item!.name })),
    };
    return { version, metadata };
  }
}
