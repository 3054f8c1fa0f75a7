import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import type {
  AdminSeasonDto,
  CreateSeasonDto,
  CreateSeasonScheduleDto,
  SeasonScheduleDto,
  UpdateSeasonScheduleDto,
} from './dto/season.dto.js';
import type { SeasonSchedule } from './entities/season.entity.js';
import { SeasonOpener } from './season-opener.js';
import { SeasonRewardChecks } from './season-reward-checks.js';
import { findSchedule, SEASON_START_MARGIN_MS, seasonCron } from './season-rules.js';
import { MAX_SEASON_MS } from './season-schedule.js';
import { SeasonViews } from './season-views.js';
import { SeasonErrors } from './seasons.errors.js';
import { SeasonsRepository } from './seasons.repository.js';

/** Management: a season defined by hand, and the schedules that define one season after another. */
@Injectable()
export class SeasonDefinitions {
  constructor(
    private readonly repo: SeasonsRepository,
    private readonly checks: SeasonRewardChecks,
    private readonly opener: SeasonOpener,
    private readonly views: SeasonViews,
    private readonly clock: Clock,
  ) {}

  async createSeason(tenantId: string, dto: CreateSeasonDto): Promise<AdminSeasonDto> {
    const now = this.clock.now();
    const { community, type, rules } = await this.checks.checkRules(tenantId, dto);
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
    const season = await this.opener.insertAndAnnounce({
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
    return this.views.adminView(season!, type.slug);
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
    const { community, type, rules } = await this.checks.checkRules(tenantId, dto);
    const cron = seasonCron(dto.cron, dto.timeZone);
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
    if (opts.open !== false) await this.opener.openNext(schedule.id, tenantId, opts.marginMs);
    return this.views.scheduleView((await this.repo.findSchedule(tenantId, schedule.id))!);
  }

  async updateSchedule(tenantId: string, id: string, dto: UpdateSeasonScheduleDto): Promise<SeasonScheduleDto> {
    const schedule = await findSchedule(this.repo, tenantId, id);
    const changes: Partial<Pick<SeasonSchedule, 'name' | 'active' | 'rewards'>> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.active !== undefined) changes.active = dto.active;
    if (dto.rewards !== undefined) changes.rewards = await this.checks.checkRewards(tenantId, schedule.communityId, dto.rewards);
    await this.repo.updateSchedule(tenantId, id, changes, this.clock.now());
    return this.views.scheduleView((await this.repo.findSchedule(tenantId, id))!);
  }
}
