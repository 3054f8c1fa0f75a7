import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { Repository } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import { CommunityErrors } from './communities.errors.js';
import { CommunityMember } from './entities/community-member.entity.js';
import { Community } from './entities/community.entity.js';

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads communities and memberships. Other modules use `resolve` and `isMember`. */
@Injectable()
export class CommunitiesService {
  constructor(
    @InjectRepository(Community) private readonly communities: Repository<Community>,
    @InjectRepository(CommunityMember) private readonly members: Repository<CommunityMember>,
  ) {}

  /**
   * The community of `tenantId` addressed by `idOrSlug` (a uuid, or a slug matched
   * case-insensitively). Throws 404 `community_not_found` otherwise, also for another tenant's id.
   */
  async resolve(tenantId: string, idOrSlug: string, em?: EntityManager): Promise<Community> {
    const repo = em ? em.getRepository(Community) : this.communities;
    const ref = idOrSlug.trim();
    const community =
      ref.length === 0 || ref.length > 64
        ? null
        : UUID_RE.test(ref)
          ? await repo.findOneBy({ tenantId, id: ref.toLowerCase() })
          : await repo.findOneBy({ tenantId, slug: ref.toLowerCase() });
    if (!community) throw new DomainError(CommunityErrors.community_not_found, `No community "${ref.slice(0, 64)}" in this tenant`);
    return community;
  }

  /** Whether `userId` is a member of the community (`communityId` must be an id, not a slug). */
  async isMember(tenantId: string, communityId: string, userId: string, em?: EntityManager): Promise<boolean> {
    const repo = em ? em.getRepository(CommunityMember) : this.members;
    return repo.existsBy({ tenantId, communityId, userId });
  }

  /** Throws 403 `not_a_member` unless `userId` is a member of the community. */
  async assertMember(tenantId: string, communityId: string, userId: string, em?: EntityManager): Promise<void> {
    if (!(await this.isMember(tenantId, communityId, userId, em))) throw new DomainError(CommunityErrors.not_a_member);
  }
}
