import { isoDate, isoDateOrNull } from '../common/serialization/iso-date.js';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import { PAGES_WEIGHT_MAX, rowsWeight } from '../common/cache/rows-weight.js';
import { EVERY_SCOPE, type ReadCache } from '../common/cache/read-cache.js';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, pageRequest, sharedPage, toPage } from '../common/pagination/pagination.js';
import { keptItem, pageOfKeptItems, unkeptItem } from '../common/serialization/item-texts.js';
import { CommunitiesService, UUID_RE } from '../communities/communities.service.js';
import type { LeaderboardEntryDto } from '../resources/dto/ranking.dto.js';
import { onConstraintViolation } from '../database/repository.js';
import { RankingService, type RankedUser } from '../resources/ranking.service.js';
import { ResourcesService } from '../resources/resources.service.js';
import '../users/users.events.js';
import type {
  AdminQuestEventsQueryDto,
  CreateQuestEventDto,
  ListQuestEventsQueryDto,
  QuestEventDto,
  UpdateQuestEventDto,
} from './dto/quest-event.dto.js';
import { progressFrom, type QuestEvent } from './entities/quest-event.entity.js';
import { EventParticipantsReadModel, type StandingRow } from './event-participants.read-model.js';
import { EVENT_STATUSES, eventStatus, isRegistrationOpen, timesProblem, type EventStatus } from './event-status.js';
import { QuestEventErrors } from './quest-events.errors.js';
import { type EventListQuery, eventListQuery, QuestEventsRepository } from './quest-events.repository.js';
import { DomainEvents } from '../common/events/domain-events.js';

/** The caller's participant status on one event (null: never registered). */
type OwnStatus = { readonly status: number | null };

/** What the leaderboard of an event is read from: its live score board, or (completed) its final standings. */
type EventBoard = { readonly eventId: string; readonly scoreTypeId: string | null; readonly completed: boolean };

/** A player's place in a completed event's final standings (`rank` null: a score of 0, unranked). */
export interface FinalStanding {
  rank: number | null;
  score: number;
  totalRanked: number;
  above: RankedUser[];
  below: RankedUser[];
}

function toRanked(r: StandingRow): RankedUser {
  return { rank: r.rank, userId: r.user_id, handle: r.handle, displayName: r.display_name, amount: Number(r.score) };
}

/** Quest events: reading (users), managing (API key), and resolving them for the other modules. */
@Injectable()
export class QuestEventsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: QuestEventsRepository,
    private readonly participants: EventParticipantsReadModel,
    private readonly communities: CommunitiesService,
    private readonly rankings: RankingService,
    private readonly resources: ResourcesService,
    private readonly clock: Clock,
    caches: CacheFactory,
    private readonly domainEvents: DomainEvents,
  ) {
    this.lists = caches.create({
      name: 'quest event list pages',
      // Pages are kept per filter a client picks: bounded by what their rows weigh, not by count.
      max: PAGES_WEIGHT_MAX,
      weigh: ({ rows }) => rowsWeight(rows),
      load: ({ query, page }) => this.repo.findListPage(query, page),
    });
    this.boards = caches.create({
      name: 'quest event boards',
      load: async (q) => {
        const e = await this.resolve(q.tenantId, q.ref);
        return { eventId: e.id, scoreTypeId: e.scoreResourceTypeId, completed: e.state === 'completed' };
      },
    });
    // A completed event's standings never change (completion froze the scores and the participants'
    // statuses); only the names they show do: every rename drops them.
    this.finalPages = caches.create({
      name: 'completed event leaderboard pages',
      max: 2_000,
      droppedOnEveryChange: true,
      load: async ({ eventId, page }) => {
        const [rows, total] = await Promise.all([this.participants.standingsPage(eventId, page), this.finalCount(eventId)]);
        return { items: rows.map(toRanked), total };
      },
    });
    this.finalRankings = caches.create({
      name: 'completed event rankings',
      max: 20_000,
      droppedOnEveryChange: true,
      load: async ({ eventId, userId, around }) => {
        const [r, total] = await Promise.all([this.participants.standingAround(eventId, userId, around), this.finalCount(eventId)]);
        const rows = (r.rows ?? []).map((x) => ({ side: x.side, user: toRanked(x) }));
        return {
          rank: r.mine ? r.mine.rank : null,
          score: r.mine ? Number(r.mine.score) : 0,
          totalRanked: total,
          above: rows.filter((x) => x.side < 0).map((x) => x.user),
          below: rows.filter((x) => x.side > 0).map((x) => x.user),
        };
      },
    });
    this.finalCounts = caches.create({
      name: 'completed event ranked counts',
      max: 2_000,
      droppedOnEveryChange: true,
      load: async ({ eventId }) => ({ n: await this.participants.rankedCount(eventId) }),
    });
    domainEvents.afterCommit('user.identity-changed', () => {
      this.finalPages.drop(EVERY_SCOPE);
      this.finalRankings.drop(EVERY_SCOPE);
    });
    this.ownStatuses = caches.create({
      name: 'caller event statuses',
      max: 200_000,
      weigh: (statuses) => statuses.size,
      droppedOnEveryChange: true,
    });
    this.ownRegistered = caches.create({
      name: 'caller registered events',
      max: 50_000,
      droppedOnEveryChange: true,
      load: async ({ tenantId, userId }) => ({ ids: await this.participants.registeredEventIds(tenantId, userId) }),
    });
  }

  /**
   * Forgets a user's cached statuses and registered events, here and, through the cache bus, in
   * every process: participation calls it at the commit of every status change.
   */
  forgetCallerState(userId: string): void {
    this.ownStatuses.drop(userId.toLowerCase());
    this.ownRegistered.drop(userId.toLowerCase());
  }

  /** The caller's status per event, one scope (and entry) per user, dropped when any of their statuses changes (so BOARD_CACHE_MS while the cache bus listens). */
  private readonly ownStatuses: ReadCache<never, Map<string, OwnStatus>>;
  /** The events the caller is REGISTERED in (the `participating` filter), one scope per user, dropped likewise. */
  private readonly ownRegistered: ReadCache<{ tenantId: string; userId: string }, { ids: string[] }>;

  /**
   * What an event's leaderboard is read from, by reference (READ_CACHE_MS; event writes drop it,
   * the completion among them, so a completed event's board is never taken for a live one).
   */
  private readonly boards: ReadCache<{ tenantId: string; ref: string }, EventBoard>;
  /** Pages of completed events' final standings, per event (frozen: only renames drop them). */
  private readonly finalPages: ReadCache<{ eventId: string; page: PageRequest }, { items: RankedUser[]; total: number }>;
  /** How many a completed event's final standings rank, per event (frozen: counted once, not per page). */
  private readonly finalCounts: ReadCache<{ eventId: string }, { n: number }>;
  /** Players' places in completed events' final standings, per event (frozen, like the pages). */
  private readonly finalRankings: ReadCache<{ eventId: string; userId: string; around: number }, FinalStanding>;

  /**
   * Pages of filtered event lists, per tenant (READ_CACHE_MS): every event write of the tenant
   * drops them (`eventsChangedIn`); registrations do not (`registeredCount` in a list may be that
   * old; the event's own read is exact). Statuses are computed per request, from the current time.
   */
  private readonly lists: ReadCache<{ query: EventListQuery; page: PageRequest }, { rows: QuestEvent[]; total: number }>;

  /** The tenant's events change in the transaction of `em` (state, times, features, rewards): what is cached of them goes at the commit. */
  eventsChangedIn(em: EntityManager, tenantId: string): void {
    this.lists.dropAfterCommit(em, tenantId);
    this.boards.dropAfterCommit(em, tenantId);
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
    const r = ref.trim().toLowerCase();
    let event: QuestEvent | null = null;
    if (r.length > 0 && r.length <= 64) {
      event = UUID_RE.test(r)
        ? await this.repo.findById(tenantId, r, opts.lock ?? false, opts.em)
        : await this.repo.findBySlug(tenantId, r, opts.lock ?? false, opts.em);
    }
    if (!event || (event.state === 'draft' && !opts.includeDrafts)) {
      throw new DomainError(QuestEventErrors.quest_event_not_found, `No quest event "${ref.slice(0, 64)}" in this tenant`);
    }
    return event;
  }

  toDto(e: QuestEvent, participantStatus: number | null = null, now = this.clock.now()): QuestEventDto {
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
      registrationStartsAt: isoDate(e.registrationStartsAt),
      registrationEndsAt: isoDate(e.registrationEndsAt),
      startsAt: isoDate(e.startsAt),
      endsAt: isoDate(e.endsAt),
      capacity: e.capacity,
      registeredCount: e.registeredCount,
      scoreResourceTypeId: e.scoreResourceTypeId,
      completionRule: { minScore: e.minScore, maxRank: e.maxRank },
      completedAt: isoDateOrNull(e.completedAt),
      participantStatus,
    };
  }

  async getForUser(tenantId: string, userId: string, ref: string): Promise<QuestEventDto> {
    const e = await this.resolve(tenantId, ref);
    return this.toDto(e, await this.participantStatus(e.id, userId));
  }

  async list(tenantId: string, userId: string, q: ListQuestEventsQueryDto): Promise<Page<QuestEventDto>> {
    const page = pageRequest(q);
    const features = (q.filter?.features ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f !== '');
    // The caller's REGISTERED events first (a handful, by index): the list query then filters by
    // an array instead of probing the participants of every event, and users with the same
    // events share its cached answer.
    const participating =
      q.participating !== undefined
        ? { value: q.participating, eventIds: (await this.ownRegistered.get(userId.toLowerCase(), '', { tenantId, userId })).ids }
        : undefined;
    const communityId =
      q.filter?.containerId !== undefined ? (await this.communities.resolveShared(tenantId, q.filter.containerId)).id : undefined;
    const query = eventListQuery(
      tenantId,
      {
        participating,
        registrationOpen: q.registrationOpen,
        communityId,
        features,
        statuses: q.filter?.status ?? [],
        itemId: q.itemId || undefined,
        resourceId: q.resourceId || undefined,
      },
      this.clock.now(),
    );
    // The page may be READ_CACHE_MS old (the time in its filters too); the caller's statuses are
    // as fresh as their last status change (cached per user, dropped by it).
    const key = JSON.stringify([query.from, query.params.map((v) => (v instanceof Date ? 'now' : v)), page.offset, page.limit]);
    const { rows, total } = await this.lists.get(tenantId, key, { query, page });
    const statuses = await this.participantStatuses(
      rows.map((e) => e.id),
      userId,
    );
    // Each item and its JSON kept per cached row and per value of what this request adds to it:
    // the event's status and registrationOpen at this time, and the caller's status
    // (ParticipantStatus, 1-4; none: 0), as one number. A status beyond three bits is never kept.
    const now = this.clock.now();
    const items = rows.map((e) => {
      const own = statuses.get(e.id) ?? null;
      if (own !== null && (own < 0 || own > 7)) return unkeptItem(this.toDto(e, own, now));
      const status = eventStatus(e, now);
      const open = isRegistrationOpen(e, now);
      return keptItem(e, (EVENT_STATUSES.indexOf(status) * 2 + (open ? 1 : 0)) * 8 + (own ?? 0), () => this.toDto(e, own, now));
    });
    return pageOfKeptItems(items, total, page);
  }

  /**
   * Live: the ranking of the event's scoped resource; only REGISTERED participants hold it (cancel
   * and drop revoke it), so this is the registered ranking. Completed: the final standings the
   * tickets were allocated by (the participants' frozen scores), not the resource, which can still move.
   */
  async leaderboard(tenantId: string, ref: string, page: PageRequest): Promise<Page<LeaderboardEntryDto>> {
    const board = await this.boards.get(tenantId, ref.trim().toLowerCase(), { tenantId, ref });
    if (board.completed)
      return sharedPage(await this.finalPages.get(board.eventId, `${page.offset}:${page.limit}`, { eventId: board.eventId, page }), page);
    if (!board.scoreTypeId) return toPage([], 0, page);
    return sharedPage(await this.rankings.leaderboard(board.scoreTypeId, page), page);
  }

  private async finalCount(eventId: string): Promise<number> {
    return (await this.finalCounts.get(eventId, '', { eventId })).n;
  }

  /** The user's place in the final standings of a completed event, with up to `around` places on each side. */
  finalStanding(eventId: string, userId: string, around: number): Promise<FinalStanding> {
    const who = userId.toLowerCase();
    return this.finalRankings.get(eventId, `${who}:${around}`, { eventId, userId: who, around });
  }

  async participantStatus(eventId: string, userId: string): Promise<number | null> {
    return (await this.participantStatuses([eventId], userId)).get(eventId) ?? null;
  }

  private async participantStatuses(eventIds: string[], userId: string): Promise<Map<string, number>> {
    const own = await this.ownStatuses.getGrouped(userId.toLowerCase(), eventIds, async (missing) => {
      const found = await this.participants.statuses(missing, userId);
      return new Map(missing.map((id) => [id, { status: found.get(id) ?? null }]));
    });
    const statuses = new Map<string, number>();
    for (const [id, { status }] of own) if (status !== null) statuses.set(id, status);
    return statuses;
  }

  // ------------------------------------------------------------------ management

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
      rows.map((e) => this.toDto(e)),
      total,
      page,
    );
  }

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
      return this.toDto(saved);
    });
  }

  async update(tenantId: string, ref: string, dto: UpdateQuestEventDto): Promise<QuestEventDto> {
    return this.dataSource.transaction(async (em) => {
      this.eventsChangedIn(em, tenantId);
      const e = await this.resolve(tenantId, ref, { includeDrafts: true, em, lock: true });
      const now = this.clock.now();
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
        await this.bindScoreType(em, e, dto.scoreResourceTypeId);
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
      await this.repo.update(
        tenantId,
        e.id,
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
        em,
      );
      if (eventStatus(e, this.clock.now()) !== status) await this.statusChanged(em, e, status);
      return this.toDto(e);
    });
  }

  /** Publishes `quest_event.status_changed` (in `em`'s transaction) from `from` to the event's status now. */
  async statusChanged(em: EntityManager, e: QuestEvent, from: EventStatus | null): Promise<void> {
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
      this.eventsChangedIn(em, tenantId);
      const e = await this.resolve(tenantId, ref, { includeDrafts: true, em, lock: true });
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
      return this.toDto(e);
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
