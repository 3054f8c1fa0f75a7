import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { DUMMY, GenerateSql } from '../database/repository.js';
import { TenantScoped, TenantScopedRepository } from '../database/tenant-scoped.repository.js';
import { CommunityMember } from './entities/community-member.entity.js';
import { Community } from './entities/community.entity.js';

/** Communities and their members. */
@Injectable()
@TenantScoped(Community, { slug: 'slug' })
export class CommunitiesRepository extends TenantScopedRepository<Community> {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The tenant's communities, oldest first, and their count. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.page] })
  page(tenantId: string, page: PageRequest, em?: EntityManager): Promise<[Community[], number]> {
    return this.manager(em)
      .getRepository(Community)
      .findAndCount({ where: { tenantId }, order: { createdAt: 'ASC', id: 'ASC' }, skip: page.offset, take: page.limit });
  }

  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        slug: 'guild',
        name: 'Guild',
        description: '',
        imageUrl: null,
        bannerUrl: null,
        links: [],
        timeZone: 'UTC',
      },
    ],
  })
  insert(
    community: Pick<Community, 'tenantId' | 'slug' | 'name' | 'description' | 'imageUrl' | 'bannerUrl' | 'links' | 'timeZone'>,
    em?: EntityManager,
  ): Promise<Community> {
    const repo = this.manager(em).getRepository(Community);
    return repo.save(repo.create(community));
  }

  /** Writes the editable fields (never `memberCount`, which `addMember` moves atomically). */
  @GenerateSql({
    params: [
      DUMMY.tenant,
      DUMMY.uuid,
      { slug: 'guild', name: 'Guild', description: '', imageUrl: null, bannerUrl: null, links: [], timeZone: 'UTC' },
    ],
  })
  async update(
    tenantId: string,
    id: string,
    fields: Pick<Community, 'slug' | 'name' | 'description' | 'imageUrl' | 'bannerUrl' | 'links' | 'timeZone'>,
    em?: EntityManager,
  ): Promise<void> {
    await this.manager(em).getRepository(Community).update({ id, tenantId }, fields);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  isMember(tenantId: string, communityId: string, userId: string, em?: EntityManager): Promise<boolean> {
    return this.manager(em).getRepository(CommunityMember).existsBy({ tenantId, communityId, userId });
  }

  /**
   * Adds the membership and counts it, in the caller's transaction; null (and nothing written)
   * when the user is a member already.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, null, DUMMY.date] })
  async addMember(
    tenantId: string,
    communityId: string,
    userId: string,
    referrerId: string | null,
    joinedAt: Date,
    em?: EntityManager,
  ): Promise<{ joinedAt: Date } | null> {
    const m = this.manager(em);
    const inserted: { joined_at: Date }[] = await m.query(
      `INSERT INTO community_members (tenant_id, community_id, user_id, referrer_id, joined_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (community_id, user_id) DO NOTHING RETURNING joined_at`,
      [tenantId, communityId, userId, referrerId, joinedAt],
    );
    if (inserted.length === 0) return null;
    await m.query('UPDATE communities SET member_count = member_count + 1 WHERE id = $1', [communityId]);
    return { joinedAt: inserted[0].joined_at };
  }

  /** When the user joined and who referred them (null when they did not join). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async membership(
    tenantId: string,
    communityId: string,
    userId: string,
    em?: EntityManager,
  ): Promise<{ joinedAt: Date; referrerId: string | null } | null> {
    const row = await this.manager(em)
      .getRepository(CommunityMember)
      .findOne({ where: { tenantId, communityId, userId }, select: { joinedAt: true, referrerId: true } });
    return row ? { joinedAt: row.joinedAt, referrerId: row.referrerId } : null;
  }
}
