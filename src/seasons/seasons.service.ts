import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import type { ReadCache } from '../common/cache/read-cache.js';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { toPage, type Page, type PageRequest } from '../common/pagination/pagination.js';
import { CommunitiesService, UUID_RE } from '../communities/communities.service.js';
import { InventoryRepository } from '../inventory/inventory.repository.js';
import { PrizesService } from '../prizes/prizes.service.js';
import { ResourceErrors } from '../resources/resources.errors.js';
import { ResourcesService } from '../resources/resources.service.js';
import { SeasonBoardsService, type SeasonBoardRef } from '../resources/season-boards.service.js';
import type {
  AdminSeasonDto,
  CreateSeasonDto,
  CreateSeasonScheduleDto,
  SeasonDto,
  SeasonPayoutDto,
  SeasonRewardDto,
  SeasonRulesDto,
  SeasonScheduleDto,
  UpdateSeasonScheduleDto,
} from './dto/season.dto.js';
import type { Season, SeasonReward, SeasonSchedule } from './entities/season.entity.js';
import { MAX_SEASON_MS, SeasonCron } from './season-schedule.js';
import { SeasonErrors } from './seasons.errors.js';
import { SeasonsRepository, type SeasonStatus } from './seasons.repository.js';
import { DomainEvents } from '../common/events/domain-events.js';
import type { SeasonCreated } from './seasons.events.js';

/**
 * A season opens at least this long after it is defined: the ledger counts an entry on the seasons
 * it sees when it writes the entry, so a season must exist before its window starts (no backfill;
 * docs/decisions.md "Seasons").
 */
export const SEASON_START_MARGIN_MS = 2000;

export function seasonStatus(s: Pick<Season, 'startsAt' | 'endsAt' | 'closedAt'>, now: Date): SeasonStatus {
  if (s.closedAt) return 'closed';
  if (now < s.startsAt) return 'upcoming';
  if (now < s.endsAt) return 'live';
  return 'closing';
}

/** The final places a reward covers among `ranked` players: [from, to] (empty when to < from). */
export function rewardRange(r: SeasonReward, ranked: number): { from: number; to: number } {
  if (r.topPercent !== undefined) return { from: 1, to: Math.min(ranked, Math.ceil((ranked * r.topPercent) / 100 - 1e-9)) };
  return { from: r.fromRank!, to: Math.min(ranked, r.toRank!) };
}

/** Seasons of resource leaderboards: definitions, schedules and what players and operators read. */
@Injectable()
export class SeasonsService implements OnModuleInit {
  private readonly logger = new Logger(SeasonsService.name);
  /** `?season=` references, per tenant: read on every season board request; see `boardOf`. */
  private readonly refs: ReadCache<{ tenantId: string; resourceTypeId: string; ref: string }, SeasonBoardRef>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: SeasonsRepository,
    private readonly boards: SeasonBoardsService,
    private readonly resources: ResourcesService,
    private readonly communities: CommunitiesService,
    private readonly items: InventoryRepository,
    private readonly prizes: PrizesService,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
    caches: CacheFactory,
  ) {
    this.refs = caches.create<{ tenantId: string; resourceTypeId: string; ref: string }, SeasonBoardRef>({
      name: 'seasons by reference',
      load: ({ tenantId, resourceTypeId, ref }) => this.loadBoardOf(tenantId, resourceTypeId, ref),
    });
  }

  /** A season's standings were frozen in the transaction of `em`: its references are dropped when it commits. */
  frozenIn(em: EntityManager, tenantId: string): void {
    this.refs.dropAfterCommit(em, tenantId);
  }

  onModuleInit(): void {
    this.boards.resolveSeasonsWith((tenantId, resourceTypeId, ref) => this.boardOf(tenantId, resourceTypeId, ref));
  }

  // ---------------------------------------------------------------- management

  async createSeason(tenantId: string, dto: CreateSeasonDto): Promise<AdminSeasonDto> {
    const now = this.clock.now();
    const { community, type, rules } = await this.checkRules(tenantId, dto);
    const earliest = new Date(now.getTime() + SEASON_START_MARGIN_MS);
    const startsAt = dto.startsAt ?? earliest;
    if (startsAt < earliest)
      throw new DomainError(
        SeasonErrors.invalid_season,
        'startsAt must be in the future: what was earned before a season is defined never counts',
      );
    if (dto.endsAt <= startsAt) throw new DomainError(SeasonErrors.invalid_season, 'endsAt must be after startsAt');
    if (dto.endsAt.getTime() - startsAt.getTime() > MAX_SEASON_MS)
      throw new DomainError(SeasonErrors.invalid_season, 'a season lasts at most 366 days');
    const season = await this.insertAndAnnounce({
      tenantId,
      communityId: community.id,
      resourceTypeId: type.id,
      scheduleId: null,
      number: 1,
      name: dto.name,
      startsAt,
      endsAt: dto.endsAt,
      ...rules,
      createdAt: now,
    });
    return this.adminView(season!, type.slug);
  }

  /**
   * `open: false` leaves the first season to the worker (or to the caller); `marginMs` is how far
   * from now the first season opens (the demo seed, which writes the only credits of its tenant
   * itself, opens it at once).
   */
  async createSchedule(
    tenantId: string,
    dto: CreateSeasonScheduleDto,
    opts: { open?: boolean; marginMs?: number } = {},
  ): Promise<SeasonScheduleDto> {
    const now = this.clock.now();
    const { community, type, rules } = await this.checkRules(tenantId, dto);
    const cron = this.cron(dto.cron, dto.timeZone);
    try {
      cron.checkPeriod(now);
    } catch (e) {
      throw new DomainError(SeasonErrors.invalid_season, (e as Error).message);
    }
    const schedule = await this.repo.insertSchedule({
      tenantId,
      communityId: community.id,
      resourceTypeId: type.id,
      name: dto.name,
      cron: dto.cron,
      timeZone: dto.timeZone,
      ...rules,
      active: true,
      createdAt: now,
      updatedAt: now,
    });
    if (opts.open !== false) await this.openNext(schedule.id, tenantId, opts.marginMs);
    return this.scheduleView((await this.repo.findSchedule(tenantId, schedule.id))!);
  }

  async updateSchedule(tenantId: string, id: string, dto: UpdateSeasonScheduleDto): Promise<SeasonScheduleDto> {
    const schedule = await this.schedule(tenantId, id);
    const changes: Partial<Pick<SeasonSchedule, 'name' | 'active' | 'rewards'>> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.active !== undefined) changes.active = dto.active;
    if (dto.rewards !== undefined) changes.rewards = await this.checkRewards(tenantId, schedule.communityId, dto.rewards);
    await this.repo.updateSchedule(tenantId, id, changes, this.clock.now());
    return this.scheduleView((await this.repo.findSchedule(tenantId, id))!);
  }

  async getSchedule(tenantId: string, id: string): Promise<SeasonScheduleDto> {
    return this.scheduleView(await this.schedule(tenantId, id));
  }

  async listSchedules(tenantId: string, communityRef: string, page: PageRequest): Promise<Page<SeasonScheduleDto>> {
    const community = await this.communities.resolve(tenantId, communityRef);
    const [rows, total] = await this.repo.listSchedules(tenantId, community.id, page);
    return toPage(
      rows.map((s) => this.scheduleView(s)),
      total,
      page,
    );
  }

  async adminGet(tenantId: string, id: string): Promise<AdminSeasonDto> {
    const season = await this.season(tenantId, id);
    const type = await this.resources.getType(tenantId, season.resourceTypeId);
    return this.adminView(season, type.slug);
  }

  /** The rewards paid (or refused) when the season closed, in final-place order. */
  async payouts(tenantId: string, id: string, page: PageRequest): Promise<Page<SeasonPayoutDto>> {
    const season = await this.season(tenantId, id);
    const [rows, total] = await this.repo.payoutsPage(season.id, page);
    return toPage(
      rows.map((p) => {
        const r = season.rewards[p.reward];
        return {
          userId: p.userId,
          position: p.position,
          reward: p.reward,
          type: r.type,
          refId: r.refId,
          amount: r.amount,
          status: p.status,
          error: p.error,
          createdAt: p.createdAt,
        };
      }),
      total,
      page,
    );
  }

  // ---------------------------------------------------------------- reads

  async list(
    tenantId: string,
    communityRef: string,
    q: { status?: SeasonStatus; resource?: string },
    page: PageRequest,
  ): Promise<Page<SeasonDto>> {
    const community = await this.communities.resolveShared(tenantId, communityRef);
    const type = q.resource ? await this.resources.getTypeInCommunity(tenantId, community.id, q.resource) : null;
    const [rows, total] = await this.repo.list(tenantId, community.id, type?.id ?? null, q.status ?? null, this.clock.now(), page);
    // A season's type is of its tenant (foreign key, deleted with it).
    const slugs = await this.resources.slugsOf(
      tenantId,
      rows.map((s) => s.resourceTypeId),
    );
    return toPage(
      rows.map((s) => this.view(s, slugs.get(s.resourceTypeId)!)),
      total,
      page,
    );
  }

  async get(tenantId: string, communityRef: string, id: string): Promise<SeasonDto> {
    const community = await this.communities.resolveShared(tenantId, communityRef);
    const season = await this.season(tenantId, id, 'in this community');
    if (season.communityId !== community.id)
      throw new DomainError(ResourceErrors.season_not_found, `No season ${id.slice(0, 64)} in this community`);
    const type = await this.resources.getType(tenantId, season.resourceTypeId);
    return this.view(season, type.slug);
  }

  /**
   * `?season=` of the ranking routes: `current` or an id, of this resource type. Every season board
   * read asks it, so it is kept for READ_CACHE_MS like the community and resource type a URL names
   * (a season that just started or ended shows within that; a freeze through this process drops it).
   */
  private boardOf(tenantId: string, resourceTypeId: string, ref: string): Promise<SeasonBoardRef> {
    return this.refs.get(tenantId, `${resourceTypeId}\u0000${ref.toLowerCase()}`, { tenantId, resourceTypeId, ref });
  }

  private async loadBoardOf(tenantId: string, resourceTypeId: string, ref: string): Promise<SeasonBoardRef> {
    const season =
      ref === 'current'
        ? await this.repo.current(tenantId, resourceTypeId, this.clock.now())
        : UUID_RE.test(ref)
          ? await this.repo.findById(tenantId, ref.toLowerCase())
          : null;
    if (!season || season.resourceTypeId !== resourceTypeId)
      throw new DomainError(
        ResourceErrors.season_not_found,
        ref === 'current' ? 'No season of this resource is running now' : `No season ${ref.slice(0, 64)} of this resource`,
      );
    return { id: season.id, ranked: season.frozenAt ? season.ranked : null };
  }

  // ---------------------------------------------------------------- schedules (the worker)

  /**
   * Makes sure the schedule has its next season: while the latest one has started (or none
   * exists), the next one is created, from the latest one's end (or from now when the service
   * missed whole periods) to the following occurrence. Concurrent callers create it once
   * (unique schedule + start).
   */
  async openNext(scheduleId: string, tenantId: string, marginMs = SEASON_START_MARGIN_MS): Promise<Season | null> {
    const schedule = await this.repo.findSchedule(tenantId, scheduleId);
    if (!schedule?.active) return null;
    const now = this.clock.now();
    const latest = await this.repo.latestOf(schedule.id);
    if (latest && latest.starts_at > now) return null;
    const cron = this.cron(schedule.cron, schedule.timeZone);
    const earliest = new Date(now.getTime() + marginMs);
    const startsAt = latest && latest.ends_at >= earliest ? latest.ends_at : earliest;
    const endsAt = cron.next(startsAt);
    const number = (latest?.number ?? 0) + 1;
    return this.insertAndAnnounce({
      tenantId,
      communityId: schedule.communityId,
      resourceTypeId: schedule.resourceTypeId,
      scheduleId: schedule.id,
      number,
      name: `${schedule.name} #${number}`,
      startsAt,
      endsAt,
      reasons: schedule.reasons,
      questIds: schedule.questIds,
      rewards: schedule.rewards,
      createdAt: now,
    });
  }

  /** Inserts the season and publishes `season.created` in one transaction (nothing when a concurrent caller created it). */
  private insertAndAnnounce(row: Parameters<SeasonsRepository['insert']>[0]): Promise<Season | null> {
    return this.dataSource.transaction(async (em) => {
      const season = await this.repo.insert(row, em);
      if (season) await this.events.publish(em, 'season.created', seasonCreated(season));
      return season;
    });
  }

  /** Opens the next season of every schedule that needs one (every tenant); how many were opened. */
  async openDueSeasons(): Promise<number> {
    let opened = 0;
    for (const d of await this.repo.schedulesDue(this.clock.now(), 100)) {
      // One schedule that fails must not stop the others, nor the closes that follow in the pass.
      try {
        if (await this.openNext(d.id, d.tenant_id)) opened++;
      } catch (err) {
        this.logger.error({ err, scheduleId: d.id }, 'opening the next season of a schedule failed; the next pass tries again');
      }
    }
    return opened;
  }

  /**
   * Records a season that ended before this service knew of it, with its final scores (a history
   * imported from another system, and the demo seed's past season): the season worker then
   * freezes it and pays its rewards like any other. Only for a window that has ended (no live
   * entry can fall in it any more, so nothing races the import). Not on the HTTP API.
   */
  async importFinished(
    tenantId: string,
    scheduleId: string,
    s: { number: number; name: string; startsAt: Date; endsAt: Date; scores: { userId: string; score: number; reachedAt: Date }[] },
  ): Promise<Season> {
    const schedule = await this.schedule(tenantId, scheduleId);
    const now = this.clock.now();
    if (s.endsAt >= now || s.startsAt >= s.endsAt) throw new DomainError(SeasonErrors.invalid_season, 'an imported season must have ended');
    return this.dataSource.transaction(async (em) => {
      const season = await this.repo.insert(
        {
          tenantId,
          communityId: schedule.communityId,
          resourceTypeId: schedule.resourceTypeId,
          scheduleId: schedule.id,
          number: s.number,
          name: s.name,
          startsAt: s.startsAt,
          endsAt: s.endsAt,
          reasons: schedule.reasons,
          questIds: schedule.questIds,
          rewards: schedule.rewards,
          createdAt: now,
        },
        em,
      );
      if (!season) throw new DomainError(SeasonErrors.invalid_season, 'the schedule has a season starting then already');
      await this.boards.importScores(em, tenantId, season.id, s.scores);
      return season;
    });
  }

  // ---------------------------------------------------------------- helpers

  private cron(expression: string, timeZone: string): SeasonCron {
    try {
      return new SeasonCron(expression, timeZone);
    } catch (e) {
      throw new DomainError(SeasonErrors.invalid_season, (e as Error).message);
    }
  }

  /** The tenant's season `id` (404 otherwise; `where` words the message). */
  private async season(tenantId: string, id: string, where = 'in this tenant'): Promise<Season> {
    const season = UUID_RE.test(id) ? await this.repo.findById(tenantId, id.toLowerCase()) : null;
    if (!season) throw new DomainError(ResourceErrors.season_not_found, `No season ${id.slice(0, 64)} ${where}`);
    return season;
  }

  private async schedule(tenantId: string, id: string): Promise<SeasonSchedule> {
    const s = UUID_RE.test(id) ? await this.repo.findSchedule(tenantId, id.toLowerCase()) : null;
    if (!s) throw new DomainError(SeasonErrors.season_schedule_not_found, `No season schedule ${id.slice(0, 64)} in this tenant`);
    return s;
  }

  private async checkRules(tenantId: string, dto: SeasonRulesDto) {
    const community = await this.communities.resolve(tenantId, dto.communityId);
    const type = await this.resources.getTypeInCommunity(tenantId, community.id, dto.resourceTypeId);
    const rewards = await this.checkRewards(tenantId, community.id, dto.rewards ?? []);
    const reasons = dto.reasons?.length ? [...new Set(dto.reasons)] : null;
    const questIds = dto.questIds?.length ? [...new Set(dto.questIds.map((q) => q.toLowerCase()))] : null;
    return { community, type, rules: { reasons, questIds, rewards } };
  }

  /** Each reward has one range, and names a resource type, item or prize of the community. */
  private async checkRewards(tenantId: string, communityId: string, list: SeasonRewardDto[]): Promise<SeasonReward[]> {
    const out: SeasonReward[] = [];
    for (const [i, r] of list.entries()) {
      const ranks = r.fromRank !== undefined || r.toRank !== undefined;
      if (ranks === (r.topPercent !== undefined))
        throw new DomainError(SeasonErrors.invalid_season, `rewards[${i}]: give either fromRank and toRank, or topPercent`);
      if (ranks && (r.fromRank === undefined || r.toRank === undefined || r.toRank < r.fromRank))
        throw new DomainError(SeasonErrors.invalid_season, `rewards[${i}]: fromRank and toRank, with fromRank <= toRank`);
      const refId = r.refId.toLowerCase();
      const ref = await this.refInCommunity(this.dataSource.manager, tenantId, r.type, refId);
      if (ref?.communityId !== communityId)
        throw new DomainError(SeasonErrors.invalid_season, `rewards[${i}]: no ${r.type} ${refId} in this community`);
      // A scoped type is one event's score: paying it would move that event's standings.
      if (ref.scoped)
        throw new DomainError(
          SeasonErrors.invalid_season,
          `rewards[${i}]: resource type ${refId} is scoped (a quest event's score); a season pays in a global type`,
        );
      out.push({
        ...(ranks ? { fromRank: r.fromRank, toRank: r.toRank } : { topPercent: r.topPercent }),
        type: r.type,
        refId,
        amount: r.amount ?? 1,
      });
    }
    return out;
  }

  /** The community of the rewarded resource type, item or prize, and whether it is a scoped type (null: none in the tenant). */
  private async refInCommunity(
    em: EntityManager,
    tenantId: string,
    type: SeasonReward['type'],
    id: string,
  ): Promise<{ communityId: string | null; scoped: boolean } | null> {
    try {
      if (type === 'resource') {
        const t = await this.resources.getType(tenantId, id);
        return { communityId: t.communityId, scoped: t.kind === 'scoped' };
      }
      if (type === 'item') {
        const item = await this.items.findGrantItem(tenantId, id, em);
        return item ? { communityId: item.community_id, scoped: false } : null;
      }
      return { communityId: (await this.prizes.findPrize(em, tenantId, id)).communityId, scoped: false };
    } catch (e) {
      if (e instanceof DomainError) return null;
      throw e;
    }
  }

  view(s: Season, slug: string): SeasonDto {
    return {
      id: s.id,
      communityId: s.communityId,
      resourceTypeId: s.resourceTypeId,
      resourceSlug: slug,
      scheduleId: s.scheduleId,
      number: s.number,
      name: s.name,
      startsAt: s.startsAt,
      endsAt: s.endsAt,
      status: seasonStatus(s, this.clock.now()),
      reasons: s.reasons,
      questIds: s.questIds,
      rewards: s.rewards.map((r) => ({
        fromRank: r.fromRank ?? null,
        toRank: r.toRank ?? null,
        topPercent: r.topPercent ?? null,
        type: r.type,
        refId: r.refId,
        amount: r.amount,
      })),
      ranked: s.frozenAt ? s.ranked : null,
      closedAt: s.closedAt,
    };
  }

  private async adminView(s: Season, slug: string): Promise<AdminSeasonDto> {
    const counts = await this.repo.payoutCounts(s.id);
    return {
      ...this.view(s, slug),
      frozenAt: s.frozenAt,
      paidThrough: s.paidThrough,
      rewardsPaid: counts.paid,
      rewardsFailed: counts.failed,
    };
  }

  private scheduleView(s: SeasonSchedule): SeasonScheduleDto {
    let nextStartsAt: Date | null = null;
    if (s.active) nextStartsAt = new SeasonCron(s.cron, s.timeZone).next(this.clock.now());
    return {
      id: s.id,
      communityId: s.communityId,
      resourceTypeId: s.resourceTypeId,
      name: s.name,
      cron: s.cron,
      timeZone: s.timeZone,
      reasons: s.reasons,
      questIds: s.questIds,
      rewards: s.rewards.map((r) => ({
        fromRank: r.fromRank ?? null,
        toRank: r.toRank ?? null,
        topPercent: r.topPercent ?? null,
        type: r.type,
        refId: r.refId,
        amount: r.amount,
      })),
      active: s.active,
      nextStartsAt,
    };
  }
}

function seasonCreated(s: Season): SeasonCreated {
  return {
    tenantId: s.tenantId,
    seasonId: s.id,
    communityId: s.communityId,
    resourceTypeId: s.resourceTypeId,
    scheduleId: s.scheduleId,
    number: s.number,
    name: s.name,
    startsAt: s.startsAt.toISOString(),
    endsAt: s.endsAt.toISOString(),
  };
}
