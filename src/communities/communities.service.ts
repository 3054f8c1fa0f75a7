import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { DataSource } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import type { ReadCache } from '../common/cache/read-cache.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { sharedAnswer } from '../common/serialization/shared-answer.js';
import { onConstraintViolation } from '../database/repository.js';
import { ReferralsService } from '../users/referrals.service.js';
import { UsersService } from '../users/users.service.js';
import { UserErrors } from '../users/users.errors.js';
import type { CommunityDto, CreateCommunityDto, UpdateCommunityDto } from './dto/community.dto.js';
import type { CommunityMemberDto, CommunityReferralDto, MembershipDto } from './dto/membership.dto.js';
import { CommunityErrors } from './communities.errors.js';
import './communities.events.js';
import type { Community } from './entities/community.entity.js';
import { CommunitiesRepository } from './communities.repository.js';
import { CommunityMembersReadModel } from './community-members.read-model.js';
import { CommunityReferralsReadModel } from './community-referrals.read-model.js';
import { UUID_RE } from '../common/validation/uuid.js';

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
    timeZone: c.timeZone,
    createdAt: c.createdAt,
  };
}

/** Reads communities and memberships. Other modules use `resolve` and `isMember`. */
@Injectable()
export class CommunitiesService {
  constructor(
    private readonly repo: CommunitiesRepository,
    private readonly referralPages: CommunityReferralsReadModel,
    private readonly memberPages: CommunityMembersReadModel,
    @InjectDataSource() private readonly dataSource: DataSource,
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
    // The cached community shows its member count (GET /community/{id}).
    events.afterCommit('community.joined', ({ tenantId }) => this.refs.drop(tenantId));
  }

  /** Communities by reference, per tenant; see `resolveShared`. */
  private readonly refs: ReadCache<{ tenantId: string; ref: string }, Community>;

  /**
   * The community of `tenantId` addressed by `idOrSlug` (a uuid, or a slug matched
   * case-insensitively). Throws 404 `community_not_found` otherwise, also for another tenant's id.
   */
  async resolve(tenantId: string, idOrSlug: string, em?: EntityManager): Promise<Community> {
    const community = await this.repo.findByIdOrSlug(tenantId, idOrSlug, em);
    if (!community)
      throw new DomainError(CommunityErrors.community_not_found, `No community "${idOrSlug.trim().slice(0, 64)}" in this tenant`);
    return community;
  }

  /**
   * `resolve` for hot reads: as read up to READ_CACHE_MS ago at most; every community write and
   * join drops it at its commit, in this process at once and in the others through CacheBus
   * (milliseconds); a 404 is never kept. Not for a read inside a transaction that writes.
   */
  resolveShared(tenantId: string, idOrSlug: string): Promise<Community> {
    return this.refs.get(tenantId, idOrSlug.trim().toLowerCase(), { tenantId, ref: idOrSlug });
  }

  /** Whether `userId` is a member of the community (`communityId` must be an id, not a slug). */
  async isMember(tenantId: string, communityId: string, userId: string, em?: EntityManager): Promise<boolean> {
    return this.repo.isMember(tenantId, communityId, userId, em);
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
    return this.dataSource.transaction(async (em) => {
      const added = await this.repo.addMember(tenantId, community.id, userId, referrer?.id ?? null, this.clock.now(), em);
      if (added) {
        await this.events.publish(em, 'community.joined', { tenantId, communityId: community.id, userId });
        if (referrer) await this.referrals.record(em, { tenantId, referrerId: referrer.id, referredId: userId, communityId: community.id });
        return {
          communityId: community.id,
          userId,
          joinedAt: added.joinedAt,
          referrerHandle: referrer?.handle ?? null,
          created: true,
        };
      }
      const existing = (await this.repo.membership(tenantId, community.id, userId, em))!;
      const first = existing.referrerId ? await this.users.findById(tenantId, existing.referrerId) : null;
      return { communityId: community.id, userId, joinedAt: existing.joinedAt, referrerHandle: first?.handle ?? null, created: false };
    });
  }

  /** The members `referrerId` referred into the community, newest first. */
  async referralsOf(tenantId: string, communityRef: string, referrerId: string, page: PageRequest): Promise<Page<CommunityReferralDto>> {
    const community = await this.resolve(tenantId, communityRef);
    const { rows, total } = await this.referralPages.page(tenantId, community.id, referrerId, page);
    return toPage(rows, total, page);
  }

  /** The members of a community, newest first, optionally those whose handle or name contains `query` (management). */
  async members(tenantId: string, communityRef: string, query: string, page: PageRequest): Promise<Page<CommunityMemberDto>> {
    const community = await this.resolve(tenantId, communityRef);
    const { rows, total } = await this.memberPages.page(tenantId, community.id, query.trim(), page);
    return toPage(rows, total, page);
  }

  async get(tenantId: string, idOrSlug: string): Promise<CommunityDto> {
    return sharedAnswer(await this.resolveShared(tenantId, idOrSlug), 'community', toCommunityDto, () => true);
  }

  async list(tenantId: string, page: PageRequest): Promise<Page<CommunityDto>> {
    const [rows, total] = await this.repo.page(tenantId, page);
    return toPage(rows.map(toCommunityDto), total, page);
  }

  async create(tenantId: string, dto: CreateCommunityDto): Promise<CommunityDto> {
    this.checkSlug(dto.slug);
    const saved = await onConstraintViolation(
      () =>
        this.repo.insert({
          tenantId,
          slug: dto.slug,
          name: dto.name,
          description: dto.description ?? '',
          imageUrl: dto.imageUrl ?? null,
          bannerUrl: dto.bannerUrl ?? null,
          links: dto.links?.map((l) => ({ label: l.label, url: l.url })) ?? [],
          timeZone: dto.timeZone ?? 'UTC',
        }),
      this.slugTaken(dto.slug),
    );
    await this.events.publish(this.dataSource.manager, 'community.changed', { tenantId, communityId: saved.id });
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
    if (dto.timeZone !== undefined) community.timeZone = dto.timeZone;
    // memberCount is maintained by join with an atomic increment: never write it back.
    const { slug, name, description, imageUrl, bannerUrl, links, timeZone } = community;
    await onConstraintViolation(
      () => this.repo.update(tenantId, community.id, { slug, name, description, imageUrl, bannerUrl, links, timeZone }),
      this.slugTaken(slug),
    );
    await this.events.publish(this.dataSource.manager, 'community.changed', { tenantId, communityId: community.id });
    return toCommunityDto(await this.resolve(tenantId, community.id));
  }

  private checkSlug(slug: string): void {
    if (UUID_RE.test(slug) || RESERVED_SLUGS.has(slug))
      throw new DomainError(CommunityErrors.invalid_community_slug, `"${slug}" cannot be a community slug`);
  }

  private slugTaken(slug: string) {
    return {
      uq_communities_tenant_slug: () =>
        new DomainError(CommunityErrors.community_slug_taken, `Another community already uses the slug "${slug}"`),
    };
  }
}
