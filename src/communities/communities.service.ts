import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { QueryFailedError, Repository } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import type { ReadCache } from '../common/cache/read-cache.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { findOneFast } from '../database/find-one-fast.js';
import { ReferralsService } from '../users/referrals.service.js';
import { UsersService } from '../users/users.service.js';
import { UserErrors } from '../users/users.errors.js';
import type { CommunityDto, CreateCommunityDto, UpdateCommunityDto } from './dto/community.dto.js';
import type { CommunityReferralDto, MembershipDto } from './dto/membership.dto.js';
import { CommunityErrors } from './communities.errors.js';
import './communities.events.js';
import { CommunityMember } from './entities/community-member.entity.js';
import { Community } from './entities/community.entity.js';

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Path segments under /v1/community/ that a slug would shadow. */
const RESERVED_SLUGS = new Set(['resource-types']);

export function toCommunityDto(c: Community): CommunityDto {
  return {
    id: c.id,
    slug: c.slug,
    name: c.name,
    description: c.description,
    imageUrl: c.imageUrl,
    bannerUrl: c.bannerUrl,
    links: c.links,
    memberCount: c.memberCount,
    createdAt: c.createdAt,
  };
}

/** Reads communities and memberships. Other modules use `resolve` and `isMember`. */
@Injectable()
export class CommunitiesService {
  constructor(
    @InjectRepository(Community) private readonly communities: Repository<Community>,
    @InjectRepository(CommunityMember) private readonly members: Repository<CommunityMember>,
    private readonly users: UsersService,
    private readonly referrals: ReferralsService,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
    caches: CacheFactory,
  ) {
    this.refs = caches.create<{ tenantId: string; ref: string }, Community>({
      name: 'community refs',
      load: ({ tenantId, ref }) => this.resolve(tenantId, ref),
    });
    events.afterCommit('community.changed', ({ tenantId }) => this.refs.drop(tenantId));
  }

  /** Communities by reference, per tenant; see `resolveShared`. */
  private readonly refs: ReadCache<{ tenantId: string; ref: string }, Community>;

  /**
   * The community of `tenantId` addressed by `idOrSlug` (a uuid, or a slug matched
   * case-insensitively). Throws 404 `community_not_found` otherwise, also for another tenant's id.
   */
  async resolve(tenantId: string, idOrSlug: string, em?: EntityManager): Promise<Community> {
    const manager = em ?? this.communities.manager;
    const ref = idOrSlug.trim();
    const community =
      ref.length === 0 || ref.length > 64
        ? null
        : UUID_RE.test(ref)
          ? await findOneFast(manager, Community, { tenantId, id: ref.toLowerCase() })
          : await findOneFast(manager, Community, { tenantId, slug: ref.toLowerCase() });
    if (!community) throw new DomainError(CommunityErrors.community_not_found, `No community "${ref.slice(0, 64)}" in this tenant`);
    return community;
  }

  /**
   * `resolve` for hot reads that need only which community a reference names (its id), such as
   * the quest lists: as read up to READ_CACHE_MS ago; community writes through this process drop
   * it; a 404 is never kept. Not for showing the community (its member count moves).
   */
  resolveShared(tenantId: string, idOrSlug: string): Promise<Community> {
    return this.refs.get(tenantId, idOrSlug.trim().toLowerCase(), { tenantId, ref: idOrSlug });
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

  /**
   * Makes the user a member (idempotent: an existing membership is returned with
   * `created: false` and nothing changes, its first referrer included). `referrerHandle` empty
   * means no referrer; otherwise it must name another member of the community (400
   * `unknown_referrer`, 400 `self_referral`). Checked on every call, so a bad handle is always 400.
   */
  async join(tenantId: string, communityRef: string, userId: string, referrerHandle: string): Promise<MembershipDto> {
    const community = await this.resolve(tenantId, communityRef);
    let referrer: { id: string; handle: string } | null = null;
    const handle = referrerHandle.trim();
    if (handle !== '') {
      const user = await this.users.findByHandle(tenantId, handle);
      if (user?.id === userId) throw new DomainError(UserErrors.self_referral, 'A user cannot refer themselves into a community');
      if (!user || !(await this.isMember(tenantId, community.id, user.id))) {
        throw new DomainError(UserErrors.unknown_referrer, `"${handle.slice(0, 32)}" is not a member of this community`);
      }
      referrer = { id: user.id, handle: user.handle };
    }
    return this.members.manager.transaction(async (em) => {
      const inserted: { joined_at: Date }[] = await em.query(
        `INSERT INTO community_members (tenant_id, community_id, user_id, referrer_id, joined_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (community_id, user_id) DO NOTHING RETURNING joined_at`,
        [tenantId, community.id, userId, referrer?.id ?? null, this.clock.now()],
      );
      if (inserted.length > 0) {
        await em.query('UPDATE communities SET member_count = member_count + 1 WHERE id = $1', [community.id]);
        if (referrer) await this.referrals.record(em, { tenantId, referrerId: referrer.id, referredId: userId, communityId: community.id });
        return {
          communityId: community.id,
          userId,
          joinedAt: inserted[0].joined_at,
          referrerHandle: referrer?.handle ?? null,
          created: true,
        };
      }
      const existing: { joined_at: Date; handle: string | null }[] = await em.query(
        `SELECT m.joined_at, u.handle FROM community_members m LEFT JOIN users u ON u.id = m.referrer_id WHERE m.community_id = $1 AND m.user_id = $2`,
        [community.id, userId],
      );
      return { communityId: community.id, userId, joinedAt: existing[0].joined_at, referrerHandle: existing[0].handle, created: false };
    });
  }

  /** The members `referrerId` referred into the community, newest first. */
  async referralsOf(tenantId: string, communityRef: string, referrerId: string, page: PageRequest): Promise<Page<CommunityReferralDto>> {
    const community = await this.resolve(tenantId, communityRef);
    const params = [tenantId, community.id, referrerId];
    const from = `FROM referrals r JOIN users u ON u.id = r.referred_id
      JOIN community_members m ON m.community_id = r.community_id AND m.user_id = r.referred_id
      WHERE r.tenant_id = $1 AND r.community_id = $2 AND r.referrer_id = $3`;
    const [rows, count] = await Promise.all([
      this.members.query<CommunityReferralDto[]>(
        `SELECT u.id AS "userId", u.handle, u.display_name AS "displayName", m.joined_at AS "joinedAt" ${from}
         ORDER BY m.joined_at DESC, u.id ASC OFFSET $4 LIMIT $5`,
        [...params, page.offset, page.limit],
      ),
      this.members.query<{ n: number }[]>(`SELECT COUNT(*)::int AS n ${from}`, params),
    ]);
    return toPage(rows, count[0].n, page);
  }

  async get(tenantId: string, idOrSlug: string): Promise<CommunityDto> {
    return toCommunityDto(await this.resolve(tenantId, idOrSlug));
  }

  async list(tenantId: string, page: PageRequest): Promise<Page<CommunityDto>> {
    const [rows, total] = await this.communities.findAndCount({
      where: { tenantId },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
    return toPage(rows.map(toCommunityDto), total, page);
  }

  async create(tenantId: string, dto: CreateCommunityDto): Promise<CommunityDto> {
    this.checkSlug(dto.slug);
    const community = this.communities.create({
      tenantId,
      slug: dto.slug,
      name: dto.name,
      description: dto.description ?? '',
      imageUrl: dto.imageUrl ?? null,
      bannerUrl: dto.bannerUrl ?? null,
      links: dto.links?.map((l) => ({ label: l.label, url: l.url })) ?? [],
    });
    const saved = await this.saveUnique(community);
    await this.events.publish(this.communities.manager, 'community.changed', { tenantId, communityId: saved.id });
    return toCommunityDto(saved);
  }

  async update(tenantId: string, idOrSlug: string, dto: UpdateCommunityDto): Promise<CommunityDto> {
    const community = await this.resolve(tenantId, idOrSlug);
    if (dto.slug !== undefined) {
      this.checkSlug(dto.slug);
      community.slug = dto.slug;
    }
    if (dto.name !== undefined) community.name = dto.name;
    if (dto.description !== undefined) community.description = dto.description;
    if (dto.imageUrl !== undefined) community.imageUrl = dto.imageUrl;
    if (dto.bannerUrl !== undefined) community.bannerUrl = dto.bannerUrl;
    if (dto.links !== undefined) community.links = dto.links.map((l) => ({ label: l.label, url: l.url }));
    // memberCount is maintained by join with an atomic increment: never write it back.
    const { slug, name, description, imageUrl, bannerUrl, links } = community;
    await this.communities
      .update({ id: community.id, tenantId }, { slug, name, description, imageUrl, bannerUrl, links })
      .catch((e: unknown) => this.rethrowSlug(e, slug));
    await this.events.publish(this.communities.manager, 'community.changed', { tenantId, communityId: community.id });
    return toCommunityDto(await this.resolve(tenantId, community.id));
  }

  private checkSlug(slug: string): void {
    if (UUID_RE.test(slug) || RESERVED_SLUGS.has(slug))
      throw new DomainError(CommunityErrors.invalid_community_slug, `"${slug}" cannot be a community slug`);
  }

  private async saveUnique(c: Community): Promise<Community> {
    try {
      return await this.communities.save(c);
    } catch (e) {
      return this.rethrowSlug(e, c.slug);
    }
  }

  private rethrowSlug(e: unknown, slug: string): never {
    if (e instanceof QueryFailedError && (e.driverError as { constraint?: string }).constraint === 'uq_communities_tenant_slug') {
      throw new DomainError(CommunityErrors.community_slug_taken, `Another community already uses the slug "${slug}"`);
    }
    throw e;
  }
}
