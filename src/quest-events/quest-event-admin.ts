import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { type Page, pageRequest, toPage } from '../common/pagination/pagination.js';
import { UUID_RE } from '../common/validation/uuid.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { onConstraintViolation } from '../database/repository.js';
import { ResourcesService } from '../resources/resources.service.js';
import type { AdminQuestEventsQueryDto, CreateQuestEventDto, QuestEventDto, UpdateQuestEventDto } from './dto/quest-event.dto.js';
import { progressFrom, type QuestEvent } from './entities/quest-event.entity.js';
import { eventStatus, timesProblem, type EventStatus } from './event-status.js';
import { QuestEventResolver } from './quest-event-resolver.js';
import { QuestEventsCaches } from './quest-events.caches.js';
import { QuestEventErrors } from './quest-events.errors.js';
import { eventListQuery, QuestEventsRepository } from './quest-events.repository.js';

/** Managing quest events (API key): the tenant's list with drafts, create, update, cancel. */
@Injectable()
export class QuestEventAdmin {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: QuestEventsRepository,
    private readonly resolver: QuestEventResolver,
    private readonly caches: QuestEventsCaches,
    private readonly communities: CommunitiesService,
    private readonly resources: ResourcesService,
    private readonly clock: Clock,
    private readonly domainEvents: DomainEvents,
  ) {}

  /** Every event of the tenant, drafts included, latest start first (management; read fresh, not cached). */
  async listAdmin(tenantId: string, q: AdminQuestEventsQueryDto): Promise<Page<QuestEventDto>> {
    const page = pageRequest(q);
    const communityId = q.communityId !== undefined ? (await this.communities.resolveShared(tenantId, q.communityId)).id : undefined;
    const query = eventListQuery(
      tenantId,
      { communityId, features: [], statuses: q.status ? [q.status] : [], includeDrafts: true },
      this.clock.now(),
    );
    const { rows, total } = await this.repo.findAdminPage(query, page);
    return toPage(
      rows.map((e) => this.resolver.toDto(e)),
      total,
      page,
    );
  }

  async getAdmin(tenantId: string, ref: string): Promise<QuestEventDto> {
    return this.resolver.toDto(await this.resolver.resolve(tenantId, ref, { includeDrafts: true }));
  }

  async create(tenantId: string, dto: CreateQuestEventDto): Promise<QuestEventDto> {
    const community = await this.communities.resolve(tenantId, dto.communityId);
    if (UUID_RE.test(dto.slug)) throw new DomainError(QuestEventErrors.invalid_quest_event, 'An event slug cannot look like a uuid');
    const problem = timesProblem(dto);
    if (problem) throw new DomainError(QuestEventErrors.invalid_quest_event, problem);
    return this.dataSource.transaction(async (em) => {
      this.caches.eventsChangedIn(em, tenantId);
      const saved = await onConstraintViolation(
        () =>
          this.repo.insert(
            {
              tenantId,
              communityId: community.id,
              slug: dto.slug,
              name: dto.name,
              description: dto.description ?? '',
              imageUrl: dto.imageUrl ?? null,
              features: dto.features ?? [],
              state: dto.publish === false ? 'draft' : 'published',
              registrationStartsAt: dto.registrationStartsAt,
              registrationEndsAt: dto.registrationEndsAt,
              startsAt: dto.startsAt,
              endsAt: dto.endsAt,
              capacity: dto.capacity ?? null,
              registeredCount: 0,
              scoreResourceTypeId: null,
              minScore: dto.minScore ?? 1,
              maxRank: dto.maxRank ?? null,
              completedAt: null,
              cancelledAt: null,
            },
            em,
          ),
        {
          uq_quest_events_tenant_slug: () =>
            new DomainError(QuestEventErrors.quest_event_slug_taken, `Another quest event already uses the slug "${dto.slug}"`),
        },
      );
      if (dto.scoreResourceTypeId) {
        await this.bindScoreType(em, saved, dto.scoreResourceTypeId);
        saved.scoreResourceTypeId = dto.scoreResourceTypeId.toLowerCase();
        await this.repo.update(tenantId, saved.id, { scoreResourceTypeId: saved.scoreResourceTypeId }, em);
      }
      await this.statusChanged(em, saved, null);
      return this.resolver.toDto(saved);
    });
  }

  async update(tenantId: string, ref: string, dto: UpdateQuestEventDto): Promise<QuestEventDto> {
    return this.dataSource.transaction(async (em) => {
      this.caches.eventsChangedIn(em, tenantId);
      const e = await this.resolver.resolve(tenantId, ref, { includeDrafts: true, em, lock: true });
      const status = changeableStatus(e, dto, this.clock.now());
      applyDetailsAndTimes(e, dto);
      if (dto.scoreResourceTypeId !== undefined) {
        await this.bindScoreType(em, e, dto.scoreResourceTypeId);
        e.scoreResourceTypeId = dto.scoreResourceTypeId.toLowerCase();
      }
      if (dto.minScore !== undefined) e.minScore = dto.minScore;
      if (dto.maxRank !== undefined) e.maxRank = dto.maxRank;
      if (dto.publish === true && e.state === 'draft') e.state = 'published';
      await this.repo.update(tenantId, e.id, writableColumns(e), em);
      if (eventStatus(e, this.clock.now()) !== status) await this.statusChanged(em, e, status);
      return this.resolver.toDto(e);
    });
  }

  /** Publishes `quest_event.status_changed` (in `em`'s transaction) from `from` to the event's status now. */
  private async statusChanged(em: EntityManager, e: QuestEvent, from: EventStatus | null): Promise<void> {
    await this.domainEvents.publish(em, 'quest_event.status_changed', {
      tenantId: e.tenantId,
      eventId: e.id,
      communityId: e.communityId,
      from,
      to: eventStatus(e, this.clock.now()),
    });
  }

  /**
   * Cancels a draft or published event that is not completed. Participants keep their status;
   * nothing is allocated. The REGISTERED players are told afterwards, in batches of their own
   * transactions (`EventCompletionService`, which the management API's cancel runs for up to 5 s,
   * and the worker finishes): the cancel stores where the telling starts (`completion`).
   */
  async cancel(tenantId: string, ref: string): Promise<QuestEventDto> {
    return this.dataSource.transaction(async (em) => {
      this.caches.eventsChangedIn(em, tenantId);
      const e = await this.resolver.resolve(tenantId, ref, { includeDrafts: true, em, lock: true });
      if (e.state === 'completing' || e.state === 'completed' || e.state === 'cancelled')
        throw new DomainError(
          QuestEventErrors.quest_event_state,
          `The event is ${e.state === 'completing' ? 'being completed' : e.state}: it cannot be cancelled`,
        );
      const from = eventStatus(e, this.clock.now());
      e.state = 'cancelled';
      e.cancelledAt = this.clock.now();
      const notices = progressFrom('notices', e.cancelledAt);
      await this.repo.update(tenantId, e.id, { state: e.state, cancelledAt: e.cancelledAt, completion: notices }, em);
      await this.statusChanged(em, e, from);
      return this.resolver.toDto(e);
    });
  }

  /**
   * The score resource must be a scoped type of the event's community, bound to no event or to
   * this one; it is bound to this one in the event's transaction (resources own the row), so a
   * scoped type scores one event only, even when two events take it at the same moment.
   */
  private async bindScoreType(em: EntityManager, e: QuestEvent, typeId: string): Promise<void> {
    const bound = await this.resources.bindScopedType(em, { tenantId: e.tenantId, communityId: e.communityId, typeId, eventId: e.id });
    if (!bound) {
      throw new DomainError(
        QuestEventErrors.invalid_quest_event,
        'scoreResourceTypeId must be a scoped resource type of the same community, bound to this event or to none (another event has it, or it is not scoped)',
      );
    }
  }
}

/** The event's status before the update, once the update may change it at all (400 otherwise). */
function changeableStatus(e: QuestEvent, dto: UpdateQuestEventDto, now: Date): EventStatus {
  const status = eventStatus(e, now);
  if (!['draft', 'upcoming', 'registration_open', 'active'].includes(status)) {
    throw new DomainError(QuestEventErrors.quest_event_state, `The event is ${status}: it cannot be changed any more`);
  }
  // A started event holds scores: a start moved into the future makes it registration_open again,
  // where a scorer can unregister (nothing is revoked) and stay ranked; one moved later in the past
  // puts scores already earned before the start. Keeping the start, or moving it earlier, changes
  // no status. Drafts have no participants.
  if (e.state === 'published' && e.startsAt <= now && dto.startsAt && dto.startsAt > e.startsAt) {
    throw new DomainError(
      QuestEventErrors.start_already_passed,
      `The event started at ${e.startsAt.toISOString()}: startsAt can only stay or move earlier`,
    );
  }
  return status;
}

/** Applies the update's texts, times and capacity to the event, once they are consistent (400 otherwise). */
function applyDetailsAndTimes(e: QuestEvent, dto: UpdateQuestEventDto): void {
  if (dto.name !== undefined) e.name = dto.name;
  if (dto.description !== undefined) e.description = dto.description;
  if (dto.imageUrl !== undefined) e.imageUrl = dto.imageUrl;
  if (dto.features !== undefined) e.features = dto.features;
  if (dto.registrationStartsAt) e.registrationStartsAt = dto.registrationStartsAt;
  if (dto.registrationEndsAt) e.registrationEndsAt = dto.registrationEndsAt;
  if (dto.startsAt) e.startsAt = dto.startsAt;
  if (dto.endsAt) e.endsAt = dto.endsAt;
  const problem = timesProblem(e);
  if (problem) throw new DomainError(QuestEventErrors.invalid_quest_event, problem);
  if (dto.capacity !== undefined) {
    if (dto.capacity !== null && dto.capacity < e.registeredCount) {
      throw new DomainError(
        QuestEventErrors.invalid_quest_event,
        `capacity cannot be below the ${e.registeredCount} REGISTERED participants`,
      );
    }
    e.capacity = dto.capacity;
  }
}

/** The columns an update writes back: registeredCount is changed only by the participation updates, never here. */
function writableColumns(e: QuestEvent): QueryDeepPartialEntity<QuestEvent> {
  return {
    name: e.name,
    description: e.description,
    imageUrl: e.imageUrl,
    features: e.features,
    registrationStartsAt: e.registrationStartsAt,
    registrationEndsAt: e.registrationEndsAt,
    startsAt: e.startsAt,
    endsAt: e.endsAt,
    capacity: e.capacity,
    scoreResourceTypeId: e.scoreResourceTypeId,
    minScore: e.minScore,
    maxRank: e.maxRank,
    state: e.state,
  };
}
