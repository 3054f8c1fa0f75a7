import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error.js';
import { CommunitiesService } from '../../communities/communities.service.js';
import { EncryptionService } from '../../crypto/encryption.service.js';
import type { QuestPlatform } from '../entities/quest-platform-credential.entity.js';
import { QuestErrors } from '../quests.errors.js';
import { QuestPlatformsRepository } from './quest-platforms.repository.js';

const context = (communityId: string, platform: QuestPlatform) => `quest-platform:${communityId}:${platform}`;

/** A community's credentials for the platforms its social tasks check, stored encrypted, never shown. */
@Injectable()
export class QuestPlatformsService {
  constructor(
    private readonly repo: QuestPlatformsRepository,
    private readonly communities: CommunitiesService,
    private readonly encryption: EncryptionService,
  ) {}

  async set(tenantId: string, communityRef: string, platform: QuestPlatform, token: string): Promise<void> {
    const community = await this.communities.resolve(tenantId, communityRef);
    await this.repo.upsert(tenantId, community.id, platform, await this.encryption.encrypt(token, context(community.id, platform)));
  }

  async remove(tenantId: string, communityRef: string, platform: QuestPlatform): Promise<void> {
    const community = await this.communities.resolve(tenantId, communityRef);
    if (!(await this.repo.delete(tenantId, community.id, platform)))
      throw new DomainError(QuestErrors.platform_not_configured, `The community has no ${platform} credential`);
  }

  /** The community's token for the platform, or null when none is set. */
  async token(tenantId: string, communityId: string, platform: QuestPlatform): Promise<string | null> {
    const enc = await this.repo.tokenEnc(tenantId, communityId, platform);
    return enc === null ? null : this.encryption.decrypt(enc, context(communityId, platform));
  }
}
