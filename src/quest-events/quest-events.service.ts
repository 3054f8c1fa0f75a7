import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { ReadCache } from '../common/cache/read-cache.js';
import { Clock } from '../common/clock/clock.js';
import { AppConfig } from '../config/app-config.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, pageRequest, toPage } from '../common/pagination/pagination.js';
import { CommunitiesService, UUID_RE } from '../communities/communities.service.js';
import type { LeaderboardEntryDto } from '../resources/dto/ranking.dto.js';
import { findOneFast, findPageFast } from '../database/find-one-fast.js';
import { RankingService } from '../resources/ranking.service.js';
import type { QuestDto } from '../quests/dto/quest.dto.js';
import { Quest } from '../quests/entities/quest.entity.js';
import { toQuestDto } from '../quests/quest.mapper.js';
import type { CreateQuestEventDto, ListQuestEventsQueryDto, QuestEventDto, UpdateQuestEventDto } from './dto/quest-event.dto.js';
import { QuestEvent } from './entities/quest-event.entity.js';
import { eventStatus, isRegistrationOpen, timesProblem } from './event-status.js';
import { QuestEventErrors } from './quest-events.errors.js';

/** SQL of the derived status of `e` at `$now` (the same rule as `eventStatus`). */
export const STATUS_SQL = (now: string) => `CASE WHEN e.state <> 'published' THEN e.state
  WHEN ${now} >= e.ends_at THEN 'ended'
  WHEN ${now} >= e.starts_at THEN 'active'
  WHEN ${now} >= e.registration_starts_at AND ${now} < e.registration_ends_at THEN 'registration_open'
  ELSE 'upcoming' END`;
const REG_OPEN_SQL = (now: string) =>
  `(e.state = 'published' AND ${now} >= e.registration_starts_at AND ${now} < e.registration_ends_at AND ${now} < e.ends_at)`;

/** Quest events: reading (users), managing (API key), and resolving them for the other modules. */
@Injectable()
export class QuestEventsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly communities: CommunitiesService,
    private readonly rankings: RankingService,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.lists = new ReadCache({
      ttlMs: config.READ_CACHE_MS,
      max: 5_000,
      clock,
      dataSource,
      load: (q) => findPageFast(dataSource.manager, QuestEvent, { alias: 'e', order: 'e.starts_at ASC, e.id ASC', ...q }),
    });
    this.scoreTypes = new ReadCache({
      ttlMs: config.READ_CACHE_MS,
      max: 5_000,
      clock,
      dataSource,
      load: async (q) => ({ id: (await this.resolve(q.tenantId, q.ref)).scoreResourceTypeId }),
    });
  }

  /** The score resource type of an event by reference, for its leaderboard (READ_CACHE_MS; event writes drop it). */
  private readonly scoreTypes: ReadCache<{ tenantId: string; ref: string }, { id: string | null }>;

  /**
   * Pages of filtered event lists, per tenant (READ_CACHE_MS): every event write of the tenant
   * drops them (`eventsChangedIn`); registrations do not (`registeredCount` in a list may be that
   * old; the event's own read is exact). Statuses are computed per request, from the current time.
   */
  private readonly lists: ReadCache<{ from: string; params: unknown[]; page: PageRequest }, { rows: QuestEvent[]; total: number }>;

  /** The tenant's events change in the transaction of `em` (state, times, features, rewards): what is cached of them goes at the commit. */
  eventsChangedIn(em: EntityManager, tenantId: string): void {
    this.lists.dropAfterCommit(em, tenantId);
    this.scoreTypes.dropAfterCommit(em, tenantId);
  }

  /**
   * The event of the tenant addressed by id or slug. Drafts are found only with `includeDrafts`
   * (users never see them). `lock` takes the row lock (inside a transaction). 404 otherwise.
   */
  async resolve(
    tenantId: string,
    ref: string,
    opts: { includeDrafts?: boolean; em?: EntityManager; lock?: boolean } = {},
  ): Promise<QuestEvent> {
    const em = opts.em ?? this.dataSource.manager;
    const r = ref.trim().toLowerCase();
    let event: QuestEvent | null = null;
    if (r.length > 0 && r.length <= 64) {
      const where = UUID_RE.test(r) ? { tenantId, id: r } : { tenantId, slug: r };
      if (opts.lock) event = await em.getRepository(QuestEvent).findOne({ where, lock: { mode: 'pessimistic_write' } });
      else event = await findOneFast(em, QuestEvent, where); // every event read, the leaderboard among them
    }
    if (!event || (event.state === 'draft' && !opts.includeDrafts)) {
      throw new DomainError(QuestEventErrors.quest_event_not_found, `No quest event "${ref.slice(0, 64)}" in this tenant`);
    }
    return event;
  }

  toDto(e: QuestEvent, participantStatus: number | null = null): QuestEventDto {
    const now = this.clock.now();
    return {
      id: e.id,
      communityId: e.communityId,
      slug: e.slug,
      name: e.name,
      description: e.description,
      imageUrl: e.imageUrl,
      features: e.features,
      status: eventStatus(e, now),
      registrationOpen: isRegistrationOpen(e, now),
      registrationStartsAt: e.registrationStartsAt,
      registrationEndsAt: e.registrationEndsAt,
      startsAt: e.startsAt,
      endsAt: e.endsAt,
      capacity: e.capacity,
      registeredCount: e.registeredCount,
      scoreResourceTypeId: e.scoreResourceTypeId,
      completionRule: { minScore: e.minScore, maxRank: e.maxRank },
      completedAt: e.completedAt,
      participantStatus,
    };
  }

  async getForUser(tenantId: string, userId: string, ref: string): Promise<QuestEventDto> {
    const e = await this.resolve(tenantId, ref);
    return this.toDto(e, await this.participantStatus(e.id, userId));
  }

  async list(tenantId: string, userId: string, q: ListQuestEventsQueryDto): Promise<Page<QuestEventDto>> {
    const page = pageRequest(q);
    const params: unknown[] = [tenantId];
    const param = (v: unknown) => `$${params.push(v)}`;
    let nowP: string | undefined;
    const now = () => (nowP ??= `${param(this.clock.now())}::timestamptz`);
    const where = [`e.tenant_id = $1`, `e.state <> 'draft'`];
    if (q.participating !== undefined) {
      // The caller's REGISTERED events first (a handful, by index): the list query then filters by
      // an array instead of probing the participants of every event, and users with the same
      // events share its cached answer.
      const mine: { event_id: string }[] = await this.dataSource.query(
        'SELECT event_id FROM quest_event_participants WHERE tenant_id = $1 AND user_id = $2 AND status = 1 ORDER BY event_id',
        [tenantId, userId],
      );
      const ids = param(mine.map((r) => r.event_id));
      where.push(q.participating ? `e.id = ANY(${ids}::uuid[])` : `NOT (e.id = ANY(${ids}::uuid[]))`);
    }
    if (q.registrationOpen !== undefined) where.push(q.registrationOpen ? REG_OPEN_SQL(now()) : `NOT ${REG_OPEN_SQL(now())}`);
    if (q.filter?.containerId !== undefined) {
      const community = await this.communities.resolveShared(tenantId, q.filter.containerId);
      where.push(`e.community_id = ${param(community.id)}`);
    }
    const features = (q.filter?.features ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f !== '');
    if (features.length > 0) where.push(`e.features @> ${param(features)}::text[]`);
    if (q.filter?.status && q.filter.status.length > 0) where.push(`(${STATUS_SQL(now())}) = ANY(${param(q.filter.status)}::text[])`);
    if (q.itemId)
      where.push(
        `EXISTS (SELECT 1 FROM quest_event_rewards r WHERE r.event_id = e.id AND r.item_id = ${param(q.itemId.toLowerCase())}::uuid)`,
      );
    if (q.resourceId) {
      const r = `${param(q.resourceId.toLowerCase())}::uuid`;
      where.push(
        `(e.score_resource_type_id = ${r} OR EXISTS (SELECT 1 FROM quest_event_rewards r WHERE r.event_id = e.id AND r.resource_type_id = ${r}))`,
      );
    }
    const from = `FROM quest_events e WHERE ${where.join(' AND ')}`;
    // The page may be READ_CACHE_MS old (the time in its filters too); the caller's statuses are read fresh.
    const key = JSON.stringify([from, params.map((v) => (v instanceof Date ? 'now' : v)), page.offset, page.limit]);
    const { rows, total } = await this.lists.get(tenantId, key, { from, params, page });
    const statuses = await this.participantStatuses(
      rows.map((e) => e.id),
      userId,
    );
    return toPage(
      rows.map((e) => this.toDto(e, statuses.get(e.id) ?? null)),
      total,
      page,
    );
  }

  /** Only REGISTERED participants hold the event's score (cancel and drop revoke it), so this is the registered ranking. */
  async leaderboard(tenantId: string, ref: string, page: PageRequest): Promise<Page<LeaderboardEntryDto>> {
    const scoreType = await this.scoreTypes.get(tenantId, ref.trim().toLowerCase(), { tenantId, ref });
    if (!scoreType.id) return toPage([], 0, page);
    const { items, total } = await this.rankings.leaderboard(scoreType.id, page);
    return toPage(items, total, page);
  }

  /** The active quests of the event, with the user's completion. */
  async eventQuests(tenantId: string, userId: string, ref: string): Promise<QuestDto[]> {
    const e = await this.resolve(tenantId, ref);
    const quests = await this.dataSource
      .getRepository(Quest)
      .find({ where: { tenantId, questEventId: e.id, status: 'active' }, order: { createdAt: 'ASC', id: 'ASC' } });
    const done: { quest_id: string }[] = quests.length
      ? await this.dataSource.query('SELECT quest_id FROM quest_completions WHERE user_id = $1 AND quest_id = ANY($2::uuid[])', [
          userId,
          quests.map((q) => q.id),
        ])
      : [];
    const completed = new Set(done.map((d) => d.quest_id));
    return quests.map((q) => toQuestDto(q, completed.has(q.id)));
  }

  async participantStatus(eventId: string, userId: string): Promise<number | null> {
    return (await this.participantStatuses([eventId], userId)).get(eventId) ?? null;
  }

  private async participantStatuses(eventIds: string[], userId: string): Promise<Map<string, number>> {
    if (eventIds.length === 0) return new Map();
    const rows: { event_id: string; status: number }[] = await this.dataSource.query(
      'SELECT event_id, status FROM quest_event_participants WHERE user_id = $1 AND event_id = ANY($2::uuid[])',
      [userId, eventIds],
    );
    return new Map(rows.map((r) => [r.event_id, r.status]));
  }

  // ------------------------------------------------------------------ management

  async getAdmin(tenantId: string, ref: string): Promise<QuestEventDto> {
    return this.toDto(await this.resolve(tenantId, ref, { includeDrafts: true }));
  }

  async create(tenantId: string, dto: CreateQuestEventDto): Promise<QuestEventDto> {
    const community = await this.communities.resolve(tenantId, dto.communityId);
    if (UUID_RE.test(dto.slug)) throw new DomainError(QuestEventErrors.invalid_quest_event, 'An event slug cannot look like a uuid');
    const problem = timesProblem(dto);
    if (problem) throw new DomainError(QuestEventErrors.invalid_quest_event, problem);
    return this.dataSource.transaction(async (em) => {
      this.eventsChangedIn(em, tenantId);
      const repo = em.getRepository(QuestEvent);
      const event = repo.create({
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
      });
      const saved = await repo.save(event).catch((e: unknown) => this.rethrowSlug(e, dto.slug));
      if (dto.scoreResourceTypeId) {
        await this.checkScoreType(em, saved, dto.scoreResourceTypeId);
        saved.scoreResourceTypeId = dto.scoreResourceTypeId.toLowerCase();
        await repo.update({ id: saved.id }, { scoreResourceTypeId: saved.scoreResourceTypeId });
      }
      return this.toDto(saved);
    });
  }

  async update(tenantId: string, ref: string, dto: UpdateQuestEventDto): Promise<QuestEventDto> {
    return this.dataSource.transaction(async (em) => {
      this.eventsChangedIn(em, tenantId);
      const e = await this.resolve(tenantId, ref, { includeDrafts: true, em, lock: true });
      const status = eventStatus(e, this.clock.now());
      if (!['draft', 'upcoming', 'registration_open', 'active'].includes(status)) {
        throw new DomainError(QuestEventErrors.quest_event_state, `The event is ${status}: it cannot be changed any more`);
      }
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
      if (dto.scoreResourceTypeId !== undefined) {
        await this.checkScoreType(em, e, dto.scoreResourceTypeId);
        e.scoreResourceTypeId = dto.scoreResourceTypeId.toLowerCase();
      }
      if (dto.minScore !== undefined) e.minScore = dto.minScore;
      if (dto.maxRank !== undefined) e.maxRank = dto.maxRank;
      if (dto.publish === true && e.state === 'draft') e.state = 'published';
      // registeredCount is changed only by the participation updates: never written back.
      const {
        name,
        description,
        imageUrl,
        features,
        registrationStartsAt,
        registrationEndsAt,
        startsAt,
        endsAt,
        capacity,
        scoreResourceTypeId,
        minScore,
        maxRank,
        state,
      } = e;
      await em.getRepository(QuestEvent).update(
        { id: e.id },
        {
          name,
          description,
          imageUrl,
          features,
          registrationStartsAt,
          registrationEndsAt,
          startsAt,
          endsAt,
          capacity,
          scoreResourceTypeId,
          minScore,
          maxRank,
          state,
        },
      );
      return this.toDto(e);
    });
  }

  /** Cancels a draft or published event that is not completed. Participants keep their status; nothing is allocated. */
  async cancel(tenantId: string, ref: string): Promise<QuestEventDto> {
    return this.dataSource.transaction(async (em) => {
      this.eventsChangedIn(em, tenantId);
      const e = await this.resolve(tenantId, ref, { includeDrafts: true, em, lock: true });
      if (e.state === 'completed' || e.state === 'cancelled')
        throw new DomainError(QuestEventErrors.quest_event_state, `The event is ${e.state}: it cannot be cancelled`);
      e.state = 'cancelled';
      e.cancelledAt = this.clock.now();
      await em.getRepository(QuestEvent).update({ id: e.id }, { state: e.state, cancelledAt: e.cancelledAt });
      return this.toDto(e);
    });
  }

  /** The score resource must be a scoped type of the event's community, not bound to another event. */
  private async checkScoreType(em: EntityManager, e: QuestEvent, typeId: string): Promise<void> {
    const rows: { community_id: string; kind: string; quest_event_id: string | null }[] = await em.query(
      'SELECT community_id, kind, quest_event_id FROM resource_types WHERE id = $1 AND tenant_id = $2',
      [typeId.toLowerCase(), e.tenantId],
    );
    const t = rows[0];
    if (!t || t.community_id !== e.communityId || t.kind !== 'scoped' || (t.quest_event_id !== null && t.quest_event_id !== e.id)) {
      throw new DomainError(
        QuestEventErrors.invalid_quest_event,
        'scoreResourceTypeId must be a scoped resource type of the same community, of this event or of none',
      );
    }
  }

  private rethrowSlug(e: unknown, slug: string): never {
    if (e instanceof QueryFailedError && (e.driverError as { constraint?: string }).constraint === 'uq_quest_events_tenant_slug') {
      throw new DomainError(QuestEventErrors.quest_event_slug_taken, `Another quest event already uses the slug "${slug}"`);
    }
    throw e;
  }
}
