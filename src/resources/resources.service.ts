import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import { Clock } from '../common/clock/clock.js';
import type { ReadCache } from '../common/cache/read-cache.js';
import { DomainEvents } from '../common/events/domain-events.js';
import '../communities/communities.events.js';
import { DomainError } from '../common/errors/domain-error.js';
import { onConstraintViolation } from '../database/repository.js';
import { LedgerRepository } from './ledger.repository.js';
import { ResourceTypesRepository } from './resource-types.repository.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { UsersService } from '../users/users.service.js';
import type { EarnedPerDayDto } from './dto/admin-ranking.dto.js';
import type { BalanceDto, LedgerEntryDto } from './dto/ledger.dto.js';
import type { CreateResourceTypeDto, ResourceTypeDto, UpdateResourceTypeDto } from './dto/resource-type.dto.js';
import type { ResourceType } from './entities/resource-type.entity.js';
import { ResourceErrors } from './resources.errors.js';
import { idOf, refOf } from '../common/validation/uuid.js';

export function toResourceTypeDto(t: ResourceType): ResourceTypeDto {
  return {
    id: t.id,
    communityId: t.communityId,
    slug: t.slug,
    name: t.name,
    description: t.description,
    kind: t.kind,
    imageUrl: t.imageUrl,
    questEventId: t.questEventId,
    createdAt: t.createdAt,
  };
}

const DAY_MS = 86_400_000;

/** Resource types (created by the management API) and reads of balances and the ledger. */
@Injectable()
export class ResourcesService {
  constructor(
    private readonly types: ResourceTypesRepository,
    private readonly ledger: LedgerRepository,
    private readonly communities: CommunitiesService,
    private readonly users: UsersService,
    private readonly clock: Clock,
    events: DomainEvents,
    caches: CacheFactory,
  ) {
    this.typeRefs = caches.create<{ tenantId: string; communityRef: string; slug: string }, ResourceType>({
      name: 'resource types by community and slug',
      load: async ({ tenantId, communityRef, slug }) =>
        this.getTypeInCommunity(tenantId, (await this.communities.resolveShared(tenantId, communityRef)).id, slug),
    });
    events.afterCommit('community.changed', ({ tenantId }) => this.typeRefs.drop(tenantId));
  }

  /** Resource types by (community reference, slug or id), per tenant; see `typeInCommunityShared`. */
  private readonly typeRefs: ReadCache<{ tenantId: string; communityRef: string; slug: string }, ResourceType>;

  /**
   * The resource type `slugOrId` of the community `communityRef` (id or slug), for the hottest
   * public reads (leaderboards, rankings): as read up to READ_CACHE_MS ago. Resource type and
   * community writes through this process drop it. 404s are not kept.
   */
  typeInCommunityShared(tenantId: string, communityRef: string, slugOrId: string): Promise<ResourceType> {
    return this.typeRefs.get(tenantId, `${communityRef.trim().toLowerCase()}\u0000${slugOrId.toLowerCase()}`, {
      tenantId,
      communityRef,
      slug: slugOrId,
    });
  }

  /** A resource type of the tenant by id; 404 otherwise. */
  async getType(tenantId: string, id: string): Promise<ResourceType> {
    const type = await this.types.findById(tenantId, id);
    if (!type) throw new DomainError(ResourceErrors.resource_type_not_found, `No resource type ${id.slice(0, 64)} in this tenant`);
    return type;
  }

  /** The slugs of these resource types of the tenant, by id (the ids of other tenants' are left out). */
  async slugsOf(tenantId: string, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    return new Map((await this.types.slugsByIds(tenantId, [...new Set(ids)])).map((t) => [t.id, t.slug]));
  }

  /** A resource type of the community by slug (case-insensitive) or id; 404 otherwise. */
  async getTypeInCommunity(tenantId: string, communityId: string, slugOrId: string): Promise<ResourceType> {
    const ref = refOf(slugOrId);
    const type = ref ? await this.types.findInCommunity(tenantId, communityId, 'id' in ref ? ref : { slug: ref.key }) : null;
    if (!type)
      throw new DomainError(ResourceErrors.resource_type_not_found, `No resource type "${slugOrId.slice(0, 64)}" in this community`);
    return type;
  }

  async listTypes(tenantId: string, communityRef: string, page: PageRequest): Promise<Page<ResourceTypeDto>> {
    const community = await this.communities.resolve(tenantId, communityRef);
    const [rows, total] = await this.types.pageInCommunity(tenantId, community.id, page);
    return toPage(rows.map(toResourceTypeDto), total, page);
  }

  async createType(tenantId: string, dto: CreateResourceTypeDto): Promise<ResourceTypeDto> {
    if (dto.kind === 'global' && dto.questEventId)
      throw new DomainError(ResourceErrors.invalid_resource_type, 'A global resource type cannot belong to a quest event');
    const community = await this.communities.resolve(tenantId, dto.communityId);
    const saved = await onConstraintViolation(
      () =>
        this.types.save({
          tenantId,
          communityId: community.id,
          slug: dto.slug,
          name: dto.name,
          description: dto.description ?? '',
          kind: dto.kind,
          imageUrl: dto.imageUrl ?? null,
          questEventId: dto.questEventId ?? null,
        }),
      {
        uq_resource_types_community_slug: () =>
          new DomainError(ResourceErrors.resource_type_slug_taken, `The community already has a resource type "${dto.slug}"`),
      },
    );
    this.typeRefs.drop(tenantId);
    return toResourceTypeDto(saved);
  }

  async updateType(tenantId: string, id: string, dto: UpdateResourceTypeDto): Promise<ResourceTypeDto> {
    const type = await this.getType(tenantId, id);
    if (dto.name !== undefined) type.name = dto.name;
    if (dto.description !== undefined) type.description = dto.description;
    if (dto.imageUrl !== undefined) type.imageUrl = dto.imageUrl;
    // Only these fields: writing the loaded row back would undo an event binding made since it was read.
    await this.types.updateDetails(tenantId, type.id, { name: type.name, description: type.description, imageUrl: type.imageUrl });
    this.typeRefs.drop(tenantId);
    return toResourceTypeDto((await this.types.findById(tenantId, type.id)) ?? type);
  }

  /**
   * Binds the scoped type `typeId` of the community to the quest event `eventId` in `em`'s
   * transaction, unless another event has it (a scoped type serves one event: its score and its
   * quests). False when the type is not a scoped type of the community or belongs to another event;
   * the caller refuses with its own error. Concurrent calls for one type: one event gets it.
   */
  async bindScopedType(em: EntityManager, b: { tenantId: string; communityId: string; typeId: string; eventId: string }): Promise<boolean> {
    const typeId = idOf(b.typeId);
    if (!typeId) return false;
    const bound = await this.types.bindToQuestEvent(b.tenantId, b.communityId, typeId, b.eventId, em);
    if (bound) this.typeRefs.dropAfterCommit(em, b.tenantId);
    return bound;
  }

  /** Every balance of a user of the tenant (404 for another tenant's user). */
  async balances(tenantId: string, userId: string): Promise<BalanceDto[]> {
    await this.users.getById(tenantId, userId);
    const rows = await this.ledger.balancesOf(tenantId, userId);
    return rows.map((r) => ({
      resourceTypeId: r.resource_type_id,
      slug: r.slug,
      communityId: r.community_id,
      balance: Number(r.balance),
      earned: Number(r.earned),
    }));
  }

  /** A user's ledger entries, newest first. */
  async ledgerEntries(
    tenantId: string,
    userId: string,
    resourceTypeId: string | undefined,
    page: PageRequest,
  ): Promise<Page<LedgerEntryDto>> {
    await this.users.getById(tenantId, userId);
    const [rows, total] = await this.ledger.entriesPage(tenantId, userId, resourceTypeId, page);
    return toPage(
      rows.map((e) => ({
        id: e.id,
        resourceTypeId: e.resourceTypeId,
        userId: e.userId,
        delta: e.delta,
        earnedDelta: e.earnedDelta,
        reason: e.reason,
        reference: e.reference,
        idempotencyKey: e.idempotencyKey,
        createdAt: e.createdAt,
      })),
      total,
      page,
    );
  }
  /**
   * A community's earnings of a resource per UTC day over the last `days` days (today included),
   * every day listed (0 when nothing was earned): the console's chart.
   */
  async earnedPerDay(tenantId: string, communityRef: string, slug: string, days: number): Promise<EarnedPerDayDto> {
    const now = this.clock.now();
    const type = await this.typeInCommunityShared(tenantId, communityRef, slug);
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const from = new Date(today - (days - 1) * DAY_MS);
    const rows = new Map((await this.ledger.earnedPerDay(tenantId, type.id, from)).map((r) => [r.day, r]));
    const list = Array.from({ length: days }, (_, i) => {
      const day = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
      const r = rows.get(day);
      return { day, earned: r ? Number(r.earned) : 0, players: r?.players ?? 0 };
    });
    return { resourceTypeId: type.id, slug: type.slug, days: list };
  }
}
